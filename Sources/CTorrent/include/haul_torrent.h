// A C interface to one libtorrent session, for Swift: plain structs, integer ids, buffers the
// caller frees with `haul_bt_free`. Every call is safe from any thread (libtorrent's session
// posts to its own network thread); no call blocks on the network.
#ifndef HAUL_TORRENT_H
#define HAUL_TORRENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct haul_bt_session haul_bt_session;

/// What the whole session does: where it listens and which ways of finding peers it uses.
typedef struct {
    /// libtorrent's `listen_interfaces`, e.g. "0.0.0.0:6881,[::]:6881" or "127.0.0.1:0".
    const char *listen_interfaces;
    int dht;
    int lsd;
    /// UPnP and NAT-PMP.
    int port_mapping;
    /// Bytes per second over every torrent; 0: no limit.
    int64_t download_limit;
    int64_t upload_limit;
} haul_bt_settings;

/// What a torrent file or a magnet link says, before anything is fetched.
typedef struct {
    /// Hex SHA-1 (v1) and SHA-256 (v2) info hashes; empty when the torrent has none of that kind.
    char info_hash_v1[41];
    char info_hash_v2[65];
    int has_metadata;
    /// Malloc'd (free with `haul_bt_free`); may be NULL.
    char *name;
    /// Tracker URLs, one per line; may be NULL.
    char *trackers;
    /// Web seed URLs, one per line; may be NULL.
    char *web_seeds;
    int64_t total_size;
    int file_count;
    int piece_count;
    int piece_length;
} haul_bt_meta;

/// Reads a torrent file's bytes. 0, or -1 with a sentence in `error`.
int haul_bt_parse_torrent(const uint8_t *data, size_t length, haul_bt_meta *out, char *error, size_t error_size);
/// Reads a magnet link. 0, or -1 with a sentence in `error`.
int haul_bt_parse_magnet(const char *uri, haul_bt_meta *out, char *error, size_t error_size);
void haul_bt_meta_free(haul_bt_meta *meta);

/// What checking a torrent's files on disk against its SHA-1 piece hashes found.
typedef struct {
    /// Pieces checked: passed + failed + unreadable.
    int64_t pieces;
    int64_t passed;
    int64_t failed;
    /// Pieces a file of could not be read whole (gone, shorter than the torrent says).
    int64_t unreadable;
    /// Pieces left out: they hold bytes of a file not chosen.
    int64_t skipped;
    /// The path (from the root, which is `root`) of the first file holding a failed or unreadable
    /// piece; malloc'd (free with `haul_bt_free`), NULL when every piece passed.
    char *first_bad_file;
} haul_bt_piece_check;

/// Reads the files of the torrent whose metadata is `data` (a torrent file's bytes, or with
/// `is_resume_data` libtorrent's resume data holding the metadata), under `folder` with its root
/// named `root`, and checks each piece against its hash. `priorities` (`count` of them, 0 for a
/// file not chosen) may be NULL: every file. 0; -1 with a sentence in `error`; -2 when the torrent
/// has no SHA-1 piece hashes (BitTorrent v2 only).
int haul_bt_check_pieces(
    const uint8_t *data, size_t length, int is_resume_data, const char *folder, const char *root,
    const uint8_t *priorities, int count, haul_bt_piece_check *out, char *error, size_t error_size);

/// A new session; `notify_fd` (an eventfd) is written to whenever alerts are waiting.
haul_bt_session *haul_bt_session_new(const haul_bt_settings *settings, int notify_fd);
void haul_bt_session_apply(haul_bt_session *session, const haul_bt_settings *settings);
/// Stops the session, closing every connection; waits for its threads.
void haul_bt_session_free(haul_bt_session *session);

/// One torrent to add. Exactly one of resume data, torrent bytes or magnet is used, in that order.
typedef struct {
    uint64_t id;
    const char *save_path;
    const uint8_t *resume;
    size_t resume_length;
    const uint8_t *torrent;
    size_t torrent_length;
    const char *magnet;
    /// The name its files go under (a file for a one-file torrent, else a folder); NULL: its own.
    const char *root_name;
    /// One priority per file (0: skip, 4: fetch); NULL: every file.
    const uint8_t *priorities;
    int priority_count;
    int64_t download_limit;
    int64_t upload_limit;
    /// The most peers it connects to (at least 2); 0: no limit of its own.
    int max_peers;
    int pex;
    /// Leave the torrent's web seeds (BEP 19) out of libtorrent: the caller fetches from them itself.
    int without_web_seeds;
    /// Upload only: no piece is requested, whatever is missing (a finished torrent that seeds again).
    int upload_only;
} haul_bt_add_params;

int haul_bt_add(haul_bt_session *session, const haul_bt_add_params *params, char *error, size_t error_size);
/// Removes the torrent, keeping its files; no-op for an unknown id.
void haul_bt_remove(haul_bt_session *session, uint64_t id);
/// Asks for its resume data (it arrives as a HAUL_BT_RESUME_DATA event); 0 when the id is unknown.
int haul_bt_save_resume(haul_bt_session *session, uint64_t id, int only_if_modified);
/// Its rates (0: none) and the most peers it connects to (0: no limit of its own).
void haul_bt_set_limits(
    haul_bt_session *session, uint64_t id, int64_t download_limit, int64_t upload_limit, int max_peers);
void haul_bt_set_priorities(haul_bt_session *session, uint64_t id, const uint8_t *priorities, int count);
/// Moves the torrent's files to `save_path` (never over a file that is there).
void haul_bt_move_storage(haul_bt_session *session, uint64_t id, const char *save_path);
/// Moves the files of a torrent whose metadata just arrived under `root_name`.
void haul_bt_rename_root(haul_bt_session *session, uint64_t id, const char *root_name);
/// Hands libtorrent a whole piece fetched elsewhere (a web seed); it is hash-checked like a peer's
/// (a HAUL_BT_HASH_FAILED event when it is wrong) and written.
void haul_bt_add_piece(haul_bt_session *session, uint64_t id, int piece, const uint8_t *data, size_t length);
/// Asks for HAUL_BT_STATUS events of every torrent that changed.
void haul_bt_post_updates(haul_bt_session *session);

typedef struct {
    /// 1 checking, 2 fetching metadata, 3 downloading, 4 finished, 5 seeding, 6 checking resume data.
    int state;
    int has_metadata;
    int64_t total_wanted;
    int64_t total_wanted_done;
    int64_t total;
    int64_t download_rate;
    int64_t upload_rate;
    int64_t uploaded;
    int64_t downloaded;
    int peers;
    int seeds;
    int64_t seeding_seconds;
    int errored;
} haul_bt_status;

enum {
    HAUL_BT_STATUS = 1,
    HAUL_BT_METADATA = 2,
    HAUL_BT_FINISHED = 3,
    HAUL_BT_RESUME_DATA = 4,
    HAUL_BT_RESUME_FAILED = 5,
    HAUL_BT_HASH_FAILED = 6,
    HAUL_BT_PEER_BANNED = 7,
    HAUL_BT_ERROR = 8,
    HAUL_BT_TRACKER_REPLY = 9,
    HAUL_BT_TRACKER_ERROR = 10,
    HAUL_BT_LISTEN_FAILED = 11,
    HAUL_BT_LISTENING = 12,
};

/// One thing that happened, from libtorrent's alerts.
typedef struct {
    int kind;
    uint64_t id;
    haul_bt_status status;
    /// A piece index, a peer count, a port; for HAUL_BT_ERROR, 1 when the disk is full.
    int64_t number;
    /// Malloc'd text (an error, a tracker's URL, a peer's address); may be NULL.
    char *text;
    /// Malloc'd bytes (resume data); may be NULL.
    uint8_t *data;
    size_t length;
} haul_bt_event;

/// Pops what happened since the last call into `events`; returns how many (at most `capacity`;
/// the rest wait for the next call).
int haul_bt_poll(haul_bt_session *session, haul_bt_event *events, int capacity);
void haul_bt_event_free(haul_bt_event *event);

typedef struct {
    char *path;
    int64_t size;
    int64_t done;
    int priority;
} haul_bt_file;

typedef struct {
    char address[64];
    /// Malloc'd; may be NULL.
    char *client;
    int64_t download_rate;
    int64_t upload_rate;
    /// Parts per million of the torrent the peer has.
    int progress_ppm;
    int seed;
} haul_bt_peer;

typedef struct {
    char *url;
    /// The tracker's last answer: a message or error; may be NULL.
    char *message;
    int working;
    int peers;
} haul_bt_tracker;

/// The torrent's files, peers and trackers; a malloc'd array in `*out` (free each entry and the
/// array with the matching function). The count, or -1 for an unknown id.
int haul_bt_files(haul_bt_session *session, uint64_t id, haul_bt_file **out);
void haul_bt_files_free(haul_bt_file *files, int count);
/// The files of a torrent not in the session, from its torrent file and (may be NULL) its resume
/// data: how much of each its verified pieces cover and its priority. The count, or -1.
int haul_bt_stored_files(const uint8_t *torrent, size_t torrent_length, const uint8_t *resume, size_t resume_length,
                         haul_bt_file **out);
int haul_bt_peers(haul_bt_session *session, uint64_t id, haul_bt_peer **out);
void haul_bt_peers_free(haul_bt_peer *peers, int count);
int haul_bt_trackers(haul_bt_session *session, uint64_t id, haul_bt_tracker **out);
void haul_bt_trackers_free(haul_bt_tracker *trackers, int count);
/// Which pieces it has, one bit each, most significant first: a malloc'd buffer in `*out`; the
/// piece count, or -1.
int haul_bt_pieces(haul_bt_session *session, uint64_t id, uint8_t **out);

/// One file as the torrent's metadata names it (before any rename): what a web seed serves.
typedef struct {
    /// Malloc'd, '/' between elements, the torrent's name first in a torrent of several files.
    char *path;
    int64_t size;
    /// Padding libtorrent inserts between files (zeros, never asked of a web seed).
    int pad;
} haul_bt_layout_file;

/// The torrent's files as named in its metadata, its piece length and whether it is a one-file
/// torrent; a malloc'd array in `*out` (free with `haul_bt_layout_free`). The count, or -1 before
/// its metadata or for an unknown id.
int haul_bt_layout(haul_bt_session *session, uint64_t id, haul_bt_layout_file **out, int64_t *piece_length,
                   int *single_file);
void haul_bt_layout_free(haul_bt_layout_file *files, int count);

void haul_bt_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
