// The C interface of haul_torrent.h over libtorrent-rasterbar 2.0: the only file that includes
// libtorrent. It translates; every decision (what to add, when to save, what a state means to a
// download) is made in Swift.
#include "haul_torrent.h"

#include <libtorrent/add_torrent_params.hpp>
#include <libtorrent/alert_types.hpp>
#include <libtorrent/announce_entry.hpp>
#include <libtorrent/error_code.hpp>
#include <libtorrent/hasher.hpp>
#include <libtorrent/ip_filter.hpp>
#include <libtorrent/magnet_uri.hpp>
#include <libtorrent/peer_info.hpp>
#include <libtorrent/read_resume_data.hpp>
#include <libtorrent/session.hpp>
#include <libtorrent/session_params.hpp>
#include <libtorrent/torrent_handle.hpp>
#include <libtorrent/torrent_info.hpp>
#include <libtorrent/torrent_status.hpp>
#include <libtorrent/write_resume_data.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lt = libtorrent;

struct haul_bt_session {
    std::unique_ptr<lt::session> session;
    int notify_fd;
    std::mutex lock;  // guards the two maps: calls come from any thread
    std::map<uint64_t, lt::torrent_handle> by_id;
    std::map<lt::torrent_handle, uint64_t> by_handle;
    std::deque<haul_bt_event> pending;
};

namespace {

char *copy_text(std::string const &text) {
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy == nullptr) return nullptr;
    std::memcpy(copy, text.data(), text.size());
    copy[text.size()] = 0;
    return copy;
}

// A write that failed for want of room: the download waits for room rather than failing.
bool is_disk_full(lt::error_code const &error) {
    return error == boost::system::errc::no_space_on_device;
}

void set_error(char *error, size_t size, std::string const &message) {
    if (error == nullptr || size == 0) return;
    std::strncpy(error, message.c_str(), size - 1);
    error[size - 1] = 0;
}

template <typename Hash>
void hex(Hash const &hash, char *out) {
    static char const digits[] = "0123456789abcdef";
    size_t i = 0;
    for (char byte : hash) {
        out[i++] = digits[(static_cast<unsigned char>(byte) >> 4) & 0xf];
        out[i++] = digits[static_cast<unsigned char>(byte) & 0xf];
    }
    out[i] = 0;
}

void fill_hashes(lt::info_hash_t const &hashes, haul_bt_meta *out) {
    out->info_hash_v1[0] = 0;
    out->info_hash_v2[0] = 0;
    if (hashes.has_v1()) hex(hashes.v1, out->info_hash_v1);
    if (hashes.has_v2()) hex(hashes.v2, out->info_hash_v2);
}

std::string lines(std::vector<std::string> const &items) {
    std::string joined;
    for (auto const &item : items) {
        if (!joined.empty()) joined += '\n';
        joined += item;
    }
    return joined;
}

void fill_info(lt::torrent_info const &info, haul_bt_meta *out) {
    fill_hashes(info.info_hashes(), out);
    out->has_metadata = 1;
    out->name = copy_text(info.name());
    std::vector<std::string> trackers;
    for (auto const &tracker : info.trackers()) trackers.push_back(tracker.url);
    out->trackers = trackers.empty() ? nullptr : copy_text(lines(trackers));
    std::vector<std::string> seeds;
    for (auto const &seed : info.web_seeds()) seeds.push_back(seed.url);
    out->web_seeds = seeds.empty() ? nullptr : copy_text(lines(seeds));
    out->total_size = info.total_size();
    out->file_count = info.num_files();
    out->piece_count = info.num_pieces();
    out->piece_length = info.piece_length();
}

/// `count` zeroed entries the caller frees with std::free (at least one, so NULL means failure).
template <typename T>
T *zeroed(int count) {
    return static_cast<T *>(std::calloc(static_cast<size_t>(std::max(count, 1)), sizeof(T)));
}

/// A rate in bytes per second as libtorrent's int settings hold it.
int clamped(int64_t rate) { return static_cast<int>(std::min<int64_t>(std::max<int64_t>(rate, 0), INT32_MAX)); }

/// A torrent's peer limit as libtorrent takes it: -1 for none, else at least 2 (its minimum).
int peer_limit(int max_peers) { return max_peers <= 0 ? -1 : std::max(max_peers, 2); }

/// Bytes from C as the span libtorrent reads.
lt::span<char const> bytes(uint8_t const *data, size_t length) {
    return lt::span<char const>(reinterpret_cast<char const *>(data), static_cast<std::ptrdiff_t>(length));
}

lt::settings_pack pack(haul_bt_settings const *settings) {
    lt::settings_pack pack;
    pack.set_str(lt::settings_pack::listen_interfaces, settings->listen_interfaces);
    pack.set_bool(lt::settings_pack::enable_dht, settings->dht != 0);
    pack.set_bool(lt::settings_pack::enable_lsd, settings->lsd != 0);
    pack.set_bool(lt::settings_pack::enable_upnp, settings->port_mapping != 0);
    pack.set_bool(lt::settings_pack::enable_natpmp, settings->port_mapping != 0);
    pack.set_int(lt::settings_pack::download_rate_limit, clamped(settings->download_limit));
    pack.set_int(lt::settings_pack::upload_rate_limit, clamped(settings->upload_limit));
    return pack;
}

haul_bt_status status_of(lt::torrent_status const &st) {
    haul_bt_status out{};
    switch (st.state) {
    case lt::torrent_status::checking_files: out.state = 1; break;
    case lt::torrent_status::downloading_metadata: out.state = 2; break;
    case lt::torrent_status::downloading: out.state = 3; break;
    case lt::torrent_status::finished: out.state = 4; break;
    case lt::torrent_status::seeding: out.state = 5; break;
    case lt::torrent_status::checking_resume_data: out.state = 6; break;
    default: out.state = 3; break;
    }
    out.has_metadata = st.has_metadata ? 1 : 0;
    out.total_wanted = st.total_wanted;
    out.total_wanted_done = st.total_wanted_done;
    out.total = st.has_metadata ? st.total : 0;
    out.download_rate = st.download_payload_rate;
    out.upload_rate = st.upload_payload_rate;
    out.uploaded = st.all_time_upload;
    out.downloaded = st.all_time_download;
    out.peers = st.num_peers;
    out.seeds = st.num_seeds;
    out.seeding_seconds = lt::total_seconds(st.seeding_duration);
    out.errored = st.errc ? 1 : 0;
    return out;
}

bool find(haul_bt_session *s, uint64_t id, lt::torrent_handle &handle) {
    std::lock_guard<std::mutex> guard(s->lock);
    auto it = s->by_id.find(id);
    if (it == s->by_id.end()) return false;
    handle = it->second;
    return true;
}

bool id_of(haul_bt_session *s, lt::torrent_handle const &handle, uint64_t &id) {
    std::lock_guard<std::mutex> guard(s->lock);
    auto it = s->by_handle.find(handle);
    if (it == s->by_handle.end()) return false;
    id = it->second;
    return true;
}

haul_bt_event event(int kind, uint64_t id) {
    haul_bt_event out{};
    out.kind = kind;
    out.id = id;
    return out;
}

std::vector<lt::download_priority_t> priorities(uint8_t const *values, int count) {
    std::vector<lt::download_priority_t> out;
    for (int i = 0; i < count; ++i) out.push_back(lt::download_priority_t(values[i]));
    return out;
}

/// Renames every file of `files` so that the first path element is `root`.
void rename_root(lt::file_storage const &files, std::string const &root,
    std::function<void(lt::file_index_t, std::string const &)> const &rename) {
    for (auto index : files.file_range()) {
        std::string path = files.file_path(index);
        auto slash = path.find('/');
        rename(index, slash == std::string::npos ? root : root + path.substr(slash));
    }
}

void translate(haul_bt_session *s, lt::alert *a) {
    uint64_t id = 0;
    if (auto *updates = lt::alert_cast<lt::state_update_alert>(a)) {
        for (auto const &st : updates->status) {
            if (!id_of(s, st.handle, id)) continue;
            haul_bt_event e = event(HAUL_BT_STATUS, id);
            e.status = status_of(st);
            s->pending.push_back(e);
        }
        return;
    }
    if (auto *listening = lt::alert_cast<lt::listen_succeeded_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_LISTENING, 0);
        e.number = listening->port;
        e.text = copy_text(listening->address.to_string());
        s->pending.push_back(e);
        return;
    }
    if (auto *failed = lt::alert_cast<lt::listen_failed_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_LISTEN_FAILED, 0);
        e.number = failed->port;
        e.text = copy_text(failed->error.message());
        s->pending.push_back(e);
        return;
    }
    auto *torrent = dynamic_cast<lt::torrent_alert *>(a);
    if (torrent == nullptr || !id_of(s, torrent->handle, id)) return;
    if (auto *resume = lt::alert_cast<lt::save_resume_data_alert>(a)) {
        std::vector<char> bytes = lt::write_resume_data_buf(resume->params);
        haul_bt_event e = event(HAUL_BT_RESUME_DATA, id);
        e.data = static_cast<uint8_t *>(std::malloc(bytes.size()));
        if (e.data != nullptr) {
            std::memcpy(e.data, bytes.data(), bytes.size());
            e.length = bytes.size();
        }
        s->pending.push_back(e);
    } else if (auto *failed = lt::alert_cast<lt::save_resume_data_failed_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_RESUME_FAILED, id);
        e.text = copy_text(failed->error.message());
        s->pending.push_back(e);
    } else if (lt::alert_cast<lt::metadata_received_alert>(a)) {
        s->pending.push_back(event(HAUL_BT_METADATA, id));
    } else if (lt::alert_cast<lt::torrent_finished_alert>(a)) {
        s->pending.push_back(event(HAUL_BT_FINISHED, id));
    } else if (auto *hash = lt::alert_cast<lt::hash_failed_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_HASH_FAILED, id);
        e.number = static_cast<int>(hash->piece_index);
        s->pending.push_back(e);
    } else if (auto *ban = lt::alert_cast<lt::peer_ban_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_PEER_BANNED, id);
        e.text = copy_text(ban->endpoint.address().to_string() + ":" + std::to_string(ban->endpoint.port()));
        s->pending.push_back(e);
    } else if (auto *error = lt::alert_cast<lt::torrent_error_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_ERROR, id);
        std::string file = error->filename();
        e.text = copy_text(error->error.message() + (file.empty() ? "" : ": " + file));
        e.number = is_disk_full(error->error) ? 1 : 0;
        s->pending.push_back(e);
    } else if (auto *file = lt::alert_cast<lt::file_error_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_ERROR, id);
        e.text = copy_text(file->error.message() + ": " + file->filename());
        e.number = is_disk_full(file->error) ? 1 : 0;
        s->pending.push_back(e);
    } else if (auto *reply = lt::alert_cast<lt::tracker_reply_alert>(a)) {
        haul_bt_event e = event(HAUL_BT_TRACKER_REPLY, id);
        e.number = reply->num_peers;
        e.text = copy_text(reply->tracker_url());
        s->pending.push_back(e);
    } else if (auto *trouble = lt::alert_cast<lt::tracker_error_alert>(a)) {
        // An announce libtorrent did not send from a listen socket that cannot reach the tracker
        // (an IPv6 socket, an IPv4 tracker) is no trouble of the tracker's.
        if (trouble->error == lt::errors::announce_skipped) return;
        haul_bt_event e = event(HAUL_BT_TRACKER_ERROR, id);
        // number 1: the tracker answered, refusing in its own words; 0: libtorrent's reason.
        std::string reason = trouble->failure_reason();
        e.number = reason.empty() ? 0 : 1;
        e.text = copy_text(std::string(trouble->tracker_url()) + "\n" + (reason.empty() ? trouble->error.message() : reason));
        s->pending.push_back(e);
    }
}

}  // namespace

extern "C" {

int haul_bt_parse_torrent(const uint8_t *data, size_t length, haul_bt_meta *out, char *error, size_t error_size) {
    *out = haul_bt_meta{};
    lt::error_code ec;
    lt::torrent_info info(bytes(data, length), ec, lt::from_span);
    if (ec) {
        set_error(error, error_size, ec.message());
        return -1;
    }
    fill_info(info, out);
    return 0;
}

int haul_bt_parse_magnet(const char *uri, haul_bt_meta *out, char *error, size_t error_size) {
    *out = haul_bt_meta{};
    lt::error_code ec;
    lt::add_torrent_params params = lt::parse_magnet_uri(uri, ec);
    if (ec) {
        set_error(error, error_size, ec.message());
        return -1;
    }
    fill_hashes(params.info_hashes, out);
    out->name = params.name.empty() ? nullptr : copy_text(params.name);
    out->trackers = params.trackers.empty() ? nullptr : copy_text(lines(params.trackers));
    out->web_seeds = params.url_seeds.empty() ? nullptr : copy_text(lines(params.url_seeds));
    return 0;
}

int haul_bt_check_pieces(
    const uint8_t *data, size_t length, int is_resume_data, const char *folder, const char *root,
    const uint8_t *priorities, int count, haul_bt_piece_check *out, char *error, size_t error_size) {
    *out = haul_bt_piece_check{};
    lt::error_code ec;
    std::shared_ptr<const lt::torrent_info> info;
    if (is_resume_data) {
        lt::add_torrent_params params = lt::read_resume_data(bytes(data, length), ec);
        if (!ec && !params.ti) {
            set_error(error, error_size, "its resume data holds no metadata");
            return -1;
        }
        info = params.ti;
    } else {
        info = std::make_shared<lt::torrent_info>(bytes(data, length), ec, lt::from_span);
    }
    if (ec) {
        set_error(error, error_size, ec.message());
        return -1;
    }
    if (!info->info_hashes().has_v1()) return -2;
    lt::file_storage const &files = info->files();
    // A file's path with the torrent's root replaced by the name the download has on disk.
    auto relative = [&](lt::file_index_t file) {
        std::string path = files.file_path(file);
        auto slash = path.find('/');
        return std::string(root) + (slash == std::string::npos ? "" : path.substr(slash));
    };
    std::vector<char> buffer(static_cast<size_t>(info->piece_length()));
    std::vector<char> const zeros(buffer.size(), 0);
    int open_file = -1;
    int fd = -1;
    for (lt::piece_index_t piece(0); piece < info->end_piece(); ++piece) {
        std::vector<lt::file_slice> slices = files.map_block(piece, 0, info->piece_size(piece));
        bool chosen = true;
        for (auto const &slice : slices) {
            int index = static_cast<int>(slice.file_index);
            if (!files.pad_file_at(slice.file_index) && priorities && (index >= count || priorities[index] == 0)) {
                chosen = false;
            }
        }
        if (!chosen) {
            ++out->skipped;
            continue;
        }
        ++out->pieces;
        lt::hasher hash;
        lt::file_index_t bad(-1);
        for (auto const &slice : slices) {
            auto size = static_cast<size_t>(slice.size);
            if (files.pad_file_at(slice.file_index)) {
                hash.update(zeros.data(), static_cast<int>(size));
                continue;
            }
            int index = static_cast<int>(slice.file_index);
            if (index != open_file) {
                if (fd >= 0) close(fd);
                std::string path = std::string(folder) + "/" + relative(slice.file_index);
                // Never through a link: only the files the download wrote are read.
                fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
                open_file = index;
            }
            if (fd < 0 || pread(fd, buffer.data(), size, slice.offset) != static_cast<ssize_t>(size)) {
                bad = slice.file_index;
                break;
            }
            hash.update(buffer.data(), static_cast<int>(size));
        }
        if (bad == lt::file_index_t(-1)) {
            if (hash.final() == info->hash_for_piece(piece)) {
                ++out->passed;
                continue;
            }
            ++out->failed;
            bad = slices.front().file_index;
            for (auto const &slice : slices) {
                if (!files.pad_file_at(slice.file_index)) {
                    bad = slice.file_index;
                    break;
                }
            }
        } else {
            ++out->unreadable;
        }
        if (out->first_bad_file == nullptr) out->first_bad_file = copy_text(relative(bad));
    }
    if (fd >= 0) close(fd);
    return 0;
}

void haul_bt_meta_free(haul_bt_meta *meta) {
    std::free(meta->name);
    std::free(meta->trackers);
    std::free(meta->web_seeds);
    meta->name = meta->trackers = meta->web_seeds = nullptr;
}

haul_bt_session *haul_bt_session_new(const haul_bt_settings *settings, int notify_fd) {
    lt::settings_pack settings_pack = pack(settings);
    settings_pack.set_int(lt::settings_pack::alert_mask,
        lt::alert_category::error | lt::alert_category::status | lt::alert_category::storage
            | lt::alert_category::tracker | lt::alert_category::peer | lt::alert_category::port_mapping);
    settings_pack.set_str(lt::settings_pack::user_agent, "haul/0.1");
    settings_pack.set_str(lt::settings_pack::peer_fingerprint, "-HL0010-");
    // Peers behind one address (a seedbox, a NAT, a test swarm on loopback) are each a peer.
    settings_pack.set_bool(lt::settings_pack::allow_multiple_connections_per_ip, true);
    // haul dials peers over TCP, as aria2 does: libtorrent tries uTP first, and a peer that does
    // not speak it (aria2c, a firewall that drops UDP) cost its connect timeout before TCP was
    // tried, the first seconds of every torrent. Peers that start uTP are still accepted.
    settings_pack.set_bool(lt::settings_pack::enable_outgoing_utp, false);
    // haul's own queue decides what runs: libtorrent's would stop torrents haul started.
    settings_pack.set_int(lt::settings_pack::active_downloads, -1);
    settings_pack.set_int(lt::settings_pack::active_seeds, -1);
    settings_pack.set_int(lt::settings_pack::active_limit, -1);
    auto *s = new haul_bt_session();
    s->notify_fd = notify_fd;
    s->session = std::make_unique<lt::session>(lt::session_params(std::move(settings_pack)));
    // libtorrent exempts peers on the local network from the global limits; a user's limit holds
    // for every peer, as it does for every HTTP connection.
    lt::ip_filter every_peer_global;
    std::uint32_t const global = 1u << static_cast<std::uint32_t>(lt::session::global_peer_class_id);
    every_peer_global.add_rule(lt::make_address("0.0.0.0"), lt::make_address("255.255.255.255"), global);
    every_peer_global.add_rule(lt::make_address("::"), lt::make_address("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), global);
    s->session->set_peer_class_filter(every_peer_global);
    s->session->set_alert_notify([fd = notify_fd] {
        uint64_t one = 1;
        ssize_t written = write(fd, &one, sizeof one);
        (void)written;
    });
    return s;
}

void haul_bt_session_apply(haul_bt_session *s, const haul_bt_settings *settings) {
    s->session->apply_settings(pack(settings));
}

void haul_bt_session_free(haul_bt_session *s) {
    s->session->set_alert_notify([] {});
    s->session.reset();
    for (auto &e : s->pending) haul_bt_event_free(&e);
    delete s;
}

int haul_bt_add(haul_bt_session *s, const haul_bt_add_params *p, char *error, size_t error_size) {
    lt::error_code ec;
    lt::add_torrent_params params;
    if (p->resume != nullptr && p->resume_length > 0) {
        params = lt::read_resume_data(bytes(p->resume, p->resume_length), ec);
        if (ec) {
            set_error(error, error_size, "its resume data cannot be read: " + ec.message());
            return -1;
        }
    } else if (p->torrent != nullptr && p->torrent_length > 0) {
        auto info = std::make_shared<lt::torrent_info>(bytes(p->torrent, p->torrent_length), ec, lt::from_span);
        if (ec) {
            set_error(error, error_size, ec.message());
            return -1;
        }
        params.ti = info;
    } else if (p->magnet != nullptr) {
        lt::parse_magnet_uri(p->magnet, params, ec);
        if (ec) {
            set_error(error, error_size, ec.message());
            return -1;
        }
    } else {
        set_error(error, error_size, "nothing to add");
        return -1;
    }
    if (p->without_web_seeds) {
        params.url_seeds.clear();
        params.http_seeds.clear();
        if (params.ti && !params.ti->web_seeds().empty()) {
            auto copy = std::make_shared<lt::torrent_info>(*params.ti);
            copy->set_web_seeds({});
            params.ti = copy;
        }
    }
    params.save_path = p->save_path;
    params.flags &= ~lt::torrent_flags::auto_managed;
    params.flags &= ~lt::torrent_flags::paused;
    params.flags |= lt::torrent_flags::duplicate_is_error;
    if (p->pex) params.flags &= ~lt::torrent_flags::disable_pex;
    else params.flags |= lt::torrent_flags::disable_pex;
    if (p->upload_only) params.flags |= lt::torrent_flags::upload_mode;
    else params.flags &= ~lt::torrent_flags::upload_mode;
    params.download_limit = clamped(p->download_limit);
    params.upload_limit = clamped(p->upload_limit);
    params.max_connections = peer_limit(p->max_peers);
    if (p->priorities != nullptr) params.file_priorities = priorities(p->priorities, p->priority_count);
    if (p->root_name != nullptr && params.ti) {
        std::string root = p->root_name;
        lt::file_storage const &files = params.ti->files();
        rename_root(files, root, [&](lt::file_index_t index, std::string const &path) {
            params.renamed_files[index] = path;
        });
    }
    lt::torrent_handle handle = s->session->add_torrent(std::move(params), ec);
    if (ec) {
        set_error(error, error_size, ec.message());
        return -1;
    }
    std::lock_guard<std::mutex> guard(s->lock);
    s->by_id[p->id] = handle;
    s->by_handle[handle] = p->id;
    return 0;
}

void haul_bt_remove(haul_bt_session *s, uint64_t id) {
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return;
    s->session->remove_torrent(handle);
    std::lock_guard<std::mutex> guard(s->lock);
    s->by_id.erase(id);
    s->by_handle.erase(handle);
}

int haul_bt_save_resume(haul_bt_session *s, uint64_t id, int only_if_modified) {
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return 0;
    lt::resume_data_flags_t flags = lt::torrent_handle::save_info_dict | lt::torrent_handle::flush_disk_cache;
    if (only_if_modified) flags |= lt::torrent_handle::only_if_modified;
    handle.save_resume_data(flags);
    return 1;
}

void haul_bt_set_limits(haul_bt_session *s, uint64_t id, int64_t download_limit, int64_t upload_limit, int max_peers) {
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return;
    handle.set_download_limit(clamped(download_limit));
    handle.set_upload_limit(clamped(upload_limit));
    handle.set_max_connections(peer_limit(max_peers));
}

void haul_bt_add_piece(haul_bt_session *s, uint64_t id, int piece, const uint8_t *data, size_t length) {
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return;
    std::vector<char> bytes(reinterpret_cast<char const *>(data), reinterpret_cast<char const *>(data) + length);
    handle.add_piece(lt::piece_index_t(piece), std::move(bytes));
}

void haul_bt_set_priorities(haul_bt_session *s, uint64_t id, const uint8_t *values, int count) {
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return;
    handle.prioritize_files(priorities(values, count));
}

void haul_bt_move_storage(haul_bt_session *s, uint64_t id, const char *save_path) {
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return;
    handle.move_storage(save_path, lt::move_flags_t::fail_if_exist);
}

void haul_bt_rename_root(haul_bt_session *s, uint64_t id, const char *root_name) {
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return;
    auto info = handle.torrent_file();
    if (!info) return;
    rename_root(info->files(), root_name, [&](lt::file_index_t index, std::string const &path) {
        handle.rename_file(index, path);
    });
}

void haul_bt_post_updates(haul_bt_session *s) { s->session->post_torrent_updates(); }

int haul_bt_poll(haul_bt_session *s, haul_bt_event *events, int capacity) {
    if (s->pending.size() < static_cast<size_t>(capacity)) {
        std::vector<lt::alert *> alerts;
        s->session->pop_alerts(&alerts);
        for (auto *a : alerts) translate(s, a);
    }
    int count = 0;
    while (count < capacity && !s->pending.empty()) {
        events[count++] = s->pending.front();
        s->pending.pop_front();
    }
    return count;
}

void haul_bt_event_free(haul_bt_event *e) {
    std::free(e->text);
    std::free(e->data);
    e->text = nullptr;
    e->data = nullptr;
}

int haul_bt_files(haul_bt_session *s, uint64_t id, haul_bt_file **out) {
    *out = nullptr;
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return -1;
    auto info = handle.torrent_file();
    if (!info) return 0;
    lt::file_storage const &files = info->files();
    std::vector<std::int64_t> progress;
    handle.file_progress(progress, lt::torrent_handle::piece_granularity);
    auto wanted = handle.get_file_priorities();
    int count = files.num_files();
    *out = zeroed<haul_bt_file>(count);
    if (*out == nullptr) return -1;
    for (auto index : files.file_range()) {
        int i = static_cast<int>(index);
        (*out)[i].path = copy_text(files.file_path(index));
        (*out)[i].size = files.file_size(index);
        (*out)[i].done = i < static_cast<int>(progress.size()) ? progress[i] : 0;
        (*out)[i].priority =
            i < static_cast<int>(wanted.size()) ? static_cast<int>(static_cast<std::uint8_t>(wanted[i])) : 4;
    }
    return count;
}

int haul_bt_stored_files(const uint8_t *torrent, size_t torrent_length, const uint8_t *resume, size_t resume_length,
                         haul_bt_file **out) {
    *out = nullptr;
    lt::error_code ec;
    lt::add_torrent_params params;
    if (resume != nullptr && resume_length > 0) {
        params = lt::read_resume_data(bytes(resume, resume_length), ec);
        if (ec) params = lt::add_torrent_params();
    }
    // A magnet's metadata is in its resume data; a torrent added from a file has the file.
    std::shared_ptr<lt::torrent_info const> info = params.ti;
    if (torrent != nullptr && torrent_length > 0) {
        lt::error_code parse_error;
        auto parsed = std::make_shared<lt::torrent_info>(bytes(torrent, torrent_length), parse_error, lt::from_span);
        if (!parse_error) info = parsed;
    }
    if (!info) return -1;
    lt::file_storage const &files = info->files();
    int count = files.num_files();
    *out = zeroed<haul_bt_file>(count);
    if (*out == nullptr) return -1;
    for (auto piece : info->piece_range()) {
        if (piece >= params.have_pieces.end_index() || !params.have_pieces.get_bit(piece)) continue;
        for (auto const &slice : files.map_block(piece, 0, info->piece_size(piece)))
            (*out)[static_cast<int>(slice.file_index)].done += slice.size;
    }
    for (auto index : files.file_range()) {
        int i = static_cast<int>(index);
        (*out)[i].path = copy_text(files.file_path(index));
        (*out)[i].size = files.file_size(index);
        (*out)[i].priority = i < static_cast<int>(params.file_priorities.size())
                                 ? static_cast<int>(static_cast<std::uint8_t>(params.file_priorities[i]))
                                 : 4;
    }
    return count;
}

void haul_bt_files_free(haul_bt_file *files, int count) {
    for (int i = 0; i < count; ++i) std::free(files[i].path);
    std::free(files);
}

int haul_bt_peers(haul_bt_session *s, uint64_t id, haul_bt_peer **out) {
    *out = nullptr;
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return -1;
    std::vector<lt::peer_info> peers;
    handle.get_peer_info(peers);
    int count = static_cast<int>(peers.size());
    *out = zeroed<haul_bt_peer>(count);
    if (*out == nullptr) return -1;
    for (int i = 0; i < count; ++i) {
        auto const &peer = peers[static_cast<size_t>(i)];
        std::string address = peer.ip.address().to_string() + ":" + std::to_string(peer.ip.port());
        std::strncpy((*out)[i].address, address.c_str(), sizeof((*out)[i].address) - 1);
        (*out)[i].client = copy_text(peer.client);
        (*out)[i].download_rate = peer.payload_down_speed;
        (*out)[i].upload_rate = peer.payload_up_speed;
        (*out)[i].progress_ppm = peer.progress_ppm;
        (*out)[i].seed = (peer.flags & lt::peer_info::seed) ? 1 : 0;
    }
    return count;
}

void haul_bt_peers_free(haul_bt_peer *peers, int count) {
    for (int i = 0; i < count; ++i) std::free(peers[i].client);
    std::free(peers);
}

int haul_bt_trackers(haul_bt_session *s, uint64_t id, haul_bt_tracker **out) {
    *out = nullptr;
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return -1;
    std::vector<lt::announce_entry> trackers = handle.trackers();
    int count = static_cast<int>(trackers.size());
    *out = zeroed<haul_bt_tracker>(count);
    if (*out == nullptr) return -1;
    for (int i = 0; i < count; ++i) {
        auto const &tracker = trackers[static_cast<size_t>(i)];
        (*out)[i].url = copy_text(tracker.url);
        // A tracker is announced to from each listen socket (each interface, IPv4 and IPv6); one
        // it cannot reach from a socket is skipped there. That skip is no news while another
        // socket reaches the tracker, so it is told only when nothing else is.
        std::string message;
        std::string skipped;
        int peers = 0;
        bool working = false;
        for (auto const &endpoint : tracker.endpoints) {
            for (auto const &hash : endpoint.info_hashes) {
                if (hash.last_error == lt::errors::announce_skipped) {
                    skipped = hash.last_error.message();
                    continue;
                }
                if (hash.last_error) message = hash.last_error.message();
                else if (!hash.message.empty()) message = hash.message;
                peers = std::max(peers, hash.scrape_complete + hash.scrape_incomplete);
                working = working || (hash.fails == 0 && !hash.message.empty()) || hash.scrape_complete >= 0
                    || (hash.start_sent && hash.fails == 0 && !hash.last_error);
            }
        }
        if (message.empty() && !working) message = skipped;
        (*out)[i].message = message.empty() ? nullptr : copy_text(message);
        (*out)[i].working = working ? 1 : 0;
        (*out)[i].peers = peers;
    }
    return count;
}

void haul_bt_trackers_free(haul_bt_tracker *trackers, int count) {
    for (int i = 0; i < count; ++i) {
        std::free(trackers[i].url);
        std::free(trackers[i].message);
    }
    std::free(trackers);
}

int haul_bt_pieces(haul_bt_session *s, uint64_t id, uint8_t **out) {
    *out = nullptr;
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return -1;
    lt::torrent_status st = handle.status(lt::torrent_handle::query_pieces);
    int count = st.pieces.size();
    *out = static_cast<uint8_t *>(std::calloc(static_cast<size_t>(count / 8 + 1), 1));
    if (*out == nullptr) return -1;
    for (int i = 0; i < count; ++i)
        if (st.pieces.get_bit(lt::piece_index_t(i))) (*out)[i / 8] |= static_cast<uint8_t>(0x80 >> (i % 8));
    return count;
}

int haul_bt_layout(haul_bt_session *s, uint64_t id, haul_bt_layout_file **out, int64_t *piece_length,
                   int *single_file) {
    *out = nullptr;
    lt::torrent_handle handle;
    if (!find(s, id, handle)) return -1;
    auto info = handle.torrent_file();
    if (!info) return -1;
    lt::file_storage const &files = info->orig_files();
    int count = files.num_files();
    *out = zeroed<haul_bt_layout_file>(count);
    if (*out == nullptr) return -1;
    for (auto index : files.file_range()) {
        int i = static_cast<int>(index);
        (*out)[i].path = copy_text(files.file_path(index));
        (*out)[i].size = files.file_size(index);
        (*out)[i].pad = files.pad_file_at(index) ? 1 : 0;
    }
    *piece_length = info->piece_length();
    *single_file = count == 1 && files.file_path(lt::file_index_t(0)).find('/') == std::string::npos ? 1 : 0;
    return count;
}

void haul_bt_layout_free(haul_bt_layout_file *files, int count) {
    for (int i = 0; i < count; ++i) std::free(files[i].path);
    std::free(files);
}

void haul_bt_free(void *pointer) { std::free(pointer); }

}  // extern "C"
