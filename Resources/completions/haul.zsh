#compdef haul

__haul_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__haul_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __haul_complete "${completions[@]:0:-1}"
    fi
}

__haul_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_haul() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar ___hook_args=('haul' 'aria2')
    local -ar arg_specs=(
        '--on-complete[A command run for each finished download, with the file'\''s path as its last argument, e.g. '\''mpv --fs'\''. Run directly, not through a shell.]:command:'
        '--on-error[A command run for each download that fails (not one you cancel), with the file'\''s path last.]:command:'
        '--on-queue-empty[A command run once each time the queue drains, e.g. '\''systemctl suspend'\''.]:command:'
        '--hook-args[haul\: the path is the last argument; aria2\: GID, number of files and path, as aria2 calls its hooks.]:haul|aria2:{__haul_complete "${___hook_args[@]}"}'
        '--hook-time-limit[Seconds a hook may run before it is stopped (default 600).]:seconds:'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--no-mouse[Leave the mouse to the terminal\: no clicks or wheel in the UI (as HAUL_NO_MOUSE=1 does).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Queue one or more URLs.'
            'ls:List downloads.'
            'run:Download everything queued, without the TUI, until nothing is waiting or downloading.'
            'pause:Pause downloads (they keep their data).'
            'resume:Queue paused downloads again.'
            'cancel:Stop downloads and delete their partial data.'
            'rm:Take downloads off the list.'
            'retry:Queue failed (or paused) downloads again.'
            'metered:Show or set the metered-network mode: off, on, or auto (NetworkManager decides).'
            'limit:Show or set the speed limit: for all downloads together, or for some (saved).'
            'move:Move downloads in the list: top, bottom, up or down.'
            'connections:Show or set the most connections per download (1-32; saved; default 8).'
            'cookies:Show or set the cookies.txt file downloads send cookies from (saved).'
            'verify:Check finished files against their checksums again.'
            'refresh:Give a download a new link and keep what it has downloaded.'
            'rpc:Show, turn on or turn off the aria2-compatible JSON-RPC endpoint (saved).'
            'daemon:Run the downloads in the background, without a terminal.'
            'service:Run haul as a systemd user service, started on demand by its sockets.'
            'hooks:Show or set the commands run when downloads finish or fail and when the queue drains (saved).'
            'rules:Show the folder rules: where downloads added without -d go, by name, kind or host.'
            'proxy:Show or set the proxy downloads go through (saved), for all hosts or --for some.'
            'hosts:List the settings kept for some hosts; add headers for them with --for and --header.'
            'remote:Show the saved remotes: engines on other machines for --connect NAME.'
            'demo:Try haul without the internet: serves generated files on loopback and opens the UI with them queued.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|ls|run|pause|resume|cancel|rm|retry|metered|limit|move|connections|cookies|verify|refresh|rpc|daemon|service|hooks|rules|proxy|hosts|remote|demo|help)
            "_haul_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_haul_add() {
    local -i ret=1
    local -ar arg_specs=(
        '*:url:'
        '(-i --input-file)'{-i,--input-file}'[Read URLs from a file ('\''-'\'' for standard input)\: one per line, or aria2'\''s input-file format (indented dir=, out=, checksum=, header=, split=, max-connection-per-server= lines under a URL).]:file:'
        '(-d --directory)'{-d,--directory}'[Directory to save into (created if missing).]:dir:'
        '(-o --output)'{-o,--output}'[File name to save as (one URL only).]:name:'
        '--checksum[Expected checksum, TYPE=HEX with TYPE md5, sha-1, sha-224, sha-256, sha-384 or sha-512; a mismatch fails the download.]:type=hex:'
        '--sha256[Expected SHA-256 (same as --checksum sha-256=HEX).]:hex:'
        '--checksum-file[A file as sha256sum, sha512sum, sha1sum or md5sum write it; each download is checked against the line for its file name.]:file:'
        '*--header[A request header, '\''Name\: value'\'' (repeatable).]:header:'
        '--load-cookies[Cookies to send, from a cookies.txt file (Netscape format, as curl -b, wget and aria2c read it); default\: '\''haul cookies'\''.]:file:'
        '--proxy[Its own proxy\: http\://host\:port, socks5\://host\:port, socks5h\://host\:port, or none (see haul proxy).]:proxy:'
        '--netrc-file[Logins for the hosts you name, from this netrc file (default\: $NETRC, else ~/.netrc); never sent to another host or a mirror.]:file:'
        '*--mirror[Another URL of the same file (repeatable, one URL only)\: the file is fetched from all of them at once.]:url:'
        '--no-mirrors[Use no mirrors or checksums that servers name in Link and Digest headers or Metalink documents.]'
        '(-x --connections)'{-x,--connections}'[Most connections per file, 1-32 (default\: '\''haul connections'\'', 8). Servers that serve ranges get several; others one.]:n:'
        '--limit[Its own speed limit, e.g. 500K or 2M.]:rate:'
        '--allow-metered[Allow this download on a metered network.]'
        '--paused[Add it paused.]'
        '--start[Start the background daemon when nothing runs the downloads yet.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_ls() {
    local -i ret=1
    local -ar arg_specs=(
        '--json[Print JSON for scripts.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_run() {
    local -i ret=1
    local -ar ___hook_args=('haul' 'aria2')
    local -ar arg_specs=(
        '(-j --concurrency)'{-j,--concurrency}'[How many downloads run at once (saved for next time).]:n:'
        '--on-complete[A command run for each finished download, with the file'\''s path as its last argument, e.g. '\''mpv --fs'\''. Run directly, not through a shell.]:command:'
        '--on-error[A command run for each download that fails (not one you cancel), with the file'\''s path last.]:command:'
        '--on-queue-empty[A command run once each time the queue drains, e.g. '\''systemctl suspend'\''.]:command:'
        '--hook-args[haul\: the path is the last argument; aria2\: GID, number of files and path, as aria2 calls its hooks.]:haul|aria2:{__haul_complete "${___hook_args[@]}"}'
        '--hook-time-limit[Seconds a hook may run before it is stopped (default 600).]:seconds:'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_pause() {
    local -i ret=1
    local -ar arg_specs=(
        '*:id:'
        '--all[Act on every download.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_resume() {
    local -i ret=1
    local -ar arg_specs=(
        '*:id:'
        '--all[Act on every download.]'
        '--allow-metered[Also allow these downloads on a metered network.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_cancel() {
    local -i ret=1
    local -ar arg_specs=(
        '*:id:'
        '--all[Act on every download.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_rm() {
    local -i ret=1
    local -ar arg_specs=(
        '*:id:'
        '--all[Act on every download.]'
        '--delete-file[Also delete the downloaded files of finished downloads.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_retry() {
    local -i ret=1
    local -ar arg_specs=(
        '*:id:'
        '--all[Act on every download.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_metered() {
    local -i ret=1
    local -ar _mode=('off' 'on' 'auto')
    local -ar arg_specs=(
        ':mode:{__haul_complete "${_mode[@]}"}'
        '--limit[Speed cap for allowed downloads while metered, e.g. 500K; '\''none'\'' removes it.]:rate:'
        '--budget[Data budget while metered, e.g. 500M/day or 10G/month; '\''none'\'' lifts it.]:size:'
        '--json[Print the status as JSON for scripts.]'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_limit() {
    local -i ret=1
    local -ar arg_specs=(
        ':rate:'
        '*:id:'
        '--during[Apply the global limit only in this daily window, e.g. 09\:00-17\:00.]:window:'
        '--for[For each download from hosts matching this glob (see haul hosts).]:pattern:'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_move() {
    local -i ret=1
    local -ar arg_specs=(
        '*:id… where:'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_connections() {
    local -i ret=1
    local -ar arg_specs=(
        ':n:'
        '*:id:'
        '--for[For downloads from hosts matching this glob (see haul hosts).]:pattern:'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_cookies() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_verify() {
    local -i ret=1
    local -ar arg_specs=(
        '*:id:'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_refresh() {
    local -i ret=1
    local -ar arg_specs=(
        ':id:'
        ':url:'
        '--state[The state file.]:path:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_rpc() {
    local -i ret=1
    local -ar arg_specs=(
        ':on|off:'
        '--port[The port to listen on (default 6800, aria2'\''s).]:port:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--listen[The address to listen on (default 127.0.0.1, this machine only).]:address:'
        '*--allow-dir[A directory calls may also put files in (besides the download directory); may be repeated.]:path:'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_daemon() {
    local -i ret=1
    local -ar ___hook_args=('haul' 'aria2')
    local -ar arg_specs=(
        '--exit-when-idle[Exit once nothing is left to download and no TUI is attached.]'
        '--stop[Stop the daemon serving this state file.]'
        '--on-complete[A command run for each finished download, with the file'\''s path as its last argument, e.g. '\''mpv --fs'\''. Run directly, not through a shell.]:command:'
        '--on-error[A command run for each download that fails (not one you cancel), with the file'\''s path last.]:command:'
        '--on-queue-empty[A command run once each time the queue drains, e.g. '\''systemctl suspend'\''.]:command:'
        '--hook-args[haul\: the path is the last argument; aria2\: GID, number of files and path, as aria2 calls its hooks.]:haul|aria2:{__haul_complete "${___hook_args[@]}"}'
        '--hook-time-limit[Seconds a hook may run before it is stopped (default 600).]:seconds:'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_service() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'install:Write and enable haul.socket and haul.service (and haul-rpc.socket while RPC is on).'
            'uninstall:Stop, disable and remove haul'\''s units (downloads are kept).'
            'status:Say what is installed, enabled, running and lingering.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        install|uninstall|status)
            "_haul_service_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_haul_service_install() {
    local -i ret=1
    local -ar arg_specs=(
        '--now[Start listening now, not only from the next login.]'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_service_uninstall() {
    local -i ret=1
    local -ar arg_specs=(
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_service_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_hooks() {
    local -i ret=1
    local -ar ___hook_args=('haul' 'aria2')
    local -ar arg_specs=(
        '--on-complete[A command run for each finished download, with the file'\''s path as its last argument, e.g. '\''mpv --fs'\''. Run directly, not through a shell.]:command:'
        '--on-error[A command run for each download that fails (not one you cancel), with the file'\''s path last.]:command:'
        '--on-queue-empty[A command run once each time the queue drains, e.g. '\''systemctl suspend'\''.]:command:'
        '--hook-args[haul\: the path is the last argument; aria2\: GID, number of files and path, as aria2 calls its hooks.]:haul|aria2:{__haul_complete "${___hook_args[@]}"}'
        '--hook-time-limit[Seconds a hook may run before it is stopped (default 600).]:seconds:'
        '--clear[Remove every saved hook.]'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_rules() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'ls:List the rules in order.'
            'add:Add a rule at the end (or --first).'
            'rm:Remove rule N (as listed).'
            'test:Say where a file of this name (or from this URL) would go.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        ls|add|rm|test)
            "_haul_rules_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_haul_rules_ls() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_rules_add() {
    local -i ret=1
    local -ar arg_specs=(
        ':pattern:'
        ':folder:'
        '--first[Put it before the other rules.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_rules_rm() {
    local -i ret=1
    local -ar arg_specs=(
        ':n:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_rules_test() {
    local -i ret=1
    local -ar arg_specs=(
        ':name|url:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_proxy() {
    local -i ret=1
    local -ar arg_specs=(
        ':proxy:'
        '--for[Only for hosts matching this glob, e.g. '\''*.example.org'\''.]:host:'
        '--unset[Remove the proxy (the global one, or the --for rule).]'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_hosts() {
    local -i ret=1
    local -ar arg_specs=(
        '--for[The host pattern to change.]:pattern:'
        '*--header[A request header for those hosts, '\''Name\: value'\'' (repeatable).]:header:'
        '--clear[Remove every setting kept for the pattern (not its proxy).]'
        '--state[The state file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_remote() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'ls:List the saved remotes.'
            'add:Save a remote (or change the one of that name).'
            'rm:Forget a saved remote.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        ls|add|rm)
            "_haul_remote_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_haul_remote_ls() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_remote_add() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        ':url:'
        '--connect[An engine on another machine\: its aria2 JSON-RPC address (ws\://nas\:6800/jsonrpc, http\://…) or the name of a saved remote ('\''haul remote add'\'').]:url|name:'
        '--secret[The RPC secret\: of --connect'\''s engine (default\: the saved remote'\''s); with '\''rpc on'\'', the one this machine'\''s endpoint asks for (default\: a new random one, kept).]:secret:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_remote_rm() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_demo() {
    local -i ret=1
    local -ar arg_specs=(
        '--count[How many downloads to queue.]:count:'
        '--rate[Per-download speed limit of the demo server, e.g. 300K or 1M.]:rate:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_haul_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _haul ]]; then
    _haul "${@}"
else
    compdef _haul haul
fi
