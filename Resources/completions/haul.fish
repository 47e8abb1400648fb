function __haul_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __haul_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __haul_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __haul_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __haul_parse_tokens -S
    set -l unparsed_tokens (__haul_tokens -pc)
    switch $unparsed_tokens[1]
    case 'haul'
        __haul_parse_subcommand 0 'on-complete=' 'on-error=' 'on-queue-empty=' 'hook-args=' 'hook-time-limit=' 'state=' 'connect=' 'secret=' 'no-mouse' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'add'
            __haul_parse_subcommand -r 1 'i/input-file=' 'd/directory=' 'o/output=' 'checksum=' 'sha256=' 'checksum-file=' 'header=+' 'load-cookies=' 'proxy=' 'netrc-file=' 'mirror=+' 'no-mirrors' 'x/connections=' 'limit=' 'allow-metered' 'paused' 'start' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'ls'
            __haul_parse_subcommand 0 'json' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'run'
            __haul_parse_subcommand 0 'j/concurrency=' 'on-complete=' 'on-error=' 'on-queue-empty=' 'hook-args=' 'hook-time-limit=' 'state=' 'version' 'h/help'
        case 'pause'
            __haul_parse_subcommand -r 1 'all' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'resume'
            __haul_parse_subcommand -r 1 'all' 'allow-metered' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'cancel'
            __haul_parse_subcommand -r 1 'all' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'rm'
            __haul_parse_subcommand -r 1 'all' 'delete-file' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'retry'
            __haul_parse_subcommand -r 1 'all' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'metered'
            __haul_parse_subcommand 1 'limit=' 'budget=' 'json' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'limit'
            __haul_parse_subcommand -r 2 'during=' 'for=' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'move'
            __haul_parse_subcommand -r 1 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'connections'
            __haul_parse_subcommand -r 2 'for=' 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'cookies'
            __haul_parse_subcommand 1 'state=' 'version' 'h/help'
        case 'verify'
            __haul_parse_subcommand -r 1 'state=' 'version' 'h/help'
        case 'refresh'
            __haul_parse_subcommand 2 'state=' 'connect=' 'secret=' 'version' 'h/help'
        case 'rpc'
            __haul_parse_subcommand 1 'port=' 'connect=' 'secret=' 'listen=' 'allow-dir=+' 'state=' 'version' 'h/help'
        case 'daemon'
            __haul_parse_subcommand 0 'exit-when-idle' 'stop' 'on-complete=' 'on-error=' 'on-queue-empty=' 'hook-args=' 'hook-time-limit=' 'state=' 'version' 'h/help'
        case 'service'
            __haul_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'install'
                __haul_parse_subcommand 0 'now' 'state=' 'version' 'h/help'
            case 'uninstall'
                __haul_parse_subcommand 0 'state=' 'version' 'h/help'
            case 'status'
                __haul_parse_subcommand 0 'state=' 'version' 'h/help'
            end
        case 'hooks'
            __haul_parse_subcommand 0 'on-complete=' 'on-error=' 'on-queue-empty=' 'hook-args=' 'hook-time-limit=' 'clear' 'state=' 'version' 'h/help'
        case 'rules'
            __haul_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __haul_parse_subcommand 0 'version' 'h/help'
            case 'add'
                __haul_parse_subcommand 2 'first' 'version' 'h/help'
            case 'rm'
                __haul_parse_subcommand 1 'version' 'h/help'
            case 'test'
                __haul_parse_subcommand 1 'version' 'h/help'
            end
        case 'proxy'
            __haul_parse_subcommand 1 'for=' 'unset' 'state=' 'version' 'h/help'
        case 'hosts'
            __haul_parse_subcommand 0 'for=' 'header=+' 'clear' 'state=' 'version' 'h/help'
        case 'remote'
            __haul_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __haul_parse_subcommand 0 'version' 'h/help'
            case 'add'
                __haul_parse_subcommand 2 'connect=' 'secret=' 'version' 'h/help'
            case 'rm'
                __haul_parse_subcommand 1 'version' 'h/help'
            end
        case 'demo'
            __haul_parse_subcommand 0 'count=' 'rate=' 'version' 'h/help'
        case 'help'
            __haul_parse_subcommand -r 1 'version'
        end
    end
end

function __haul_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __haul_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __haul_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __haul_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__haul_tokens -p)
    if test -z "$(__haul_tokens -t)"
        set -l index (count (__haul_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'haul' -f
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" on-complete' -l 'on-complete' -d 'A command run for each finished download, with the file\'s path as its last argument, e.g. \'mpv --fs\'. Run directly, not through a shell.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" on-error' -l 'on-error' -d 'A command run for each download that fails (not one you cancel), with the file\'s path last.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" on-queue-empty' -l 'on-queue-empty' -d 'A command run once each time the queue drains, e.g. \'systemctl suspend\'.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" hook-args' -l 'hook-args' -d 'haul: the path is the last argument; aria2: GID, number of files and path, as aria2 calls its hooks.' -rfka 'haul aria2'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" hook-time-limit' -l 'hook-time-limit' -d 'Seconds a hook may run before it is stopped (default 600).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" no-mouse' -l 'no-mouse' -d 'Leave the mouse to the terminal: no clicks or wheel in the UI (as HAUL_NO_MOUSE=1 does).'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'add' -d 'Queue one or more URLs.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'ls' -d 'List downloads.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'run' -d 'Download everything queued, without the TUI, until nothing is waiting or downloading.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'pause' -d 'Pause downloads (they keep their data).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'resume' -d 'Queue paused downloads again.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'cancel' -d 'Stop downloads and delete their partial data.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'rm' -d 'Take downloads off the list.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'retry' -d 'Queue failed (or paused) downloads again.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'metered' -d 'Show or set the metered-network mode: off, on, or auto (NetworkManager decides).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'limit' -d 'Show or set the speed limit: for all downloads together, or for some (saved).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'move' -d 'Move downloads in the list: top, bottom, up or down.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'connections' -d 'Show or set the most connections per download (1-32; saved; default 8).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'cookies' -d 'Show or set the cookies.txt file downloads send cookies from (saved).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'verify' -d 'Check finished files against their checksums again.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'refresh' -d 'Give a download a new link and keep what it has downloaded.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'rpc' -d 'Show, turn on or turn off the aria2-compatible JSON-RPC endpoint (saved).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'daemon' -d 'Run the downloads in the background, without a terminal.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'service' -d 'Run haul as a systemd user service, started on demand by its sockets.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'hooks' -d 'Show or set the commands run when downloads finish or fail and when the queue drains (saved).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'rules' -d 'Show the folder rules: where downloads added without -d go, by name, kind or host.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'proxy' -d 'Show or set the proxy downloads go through (saved), for all hosts or --for some.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'hosts' -d 'List the settings kept for some hosts; add headers for them with --for and --header.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'remote' -d 'Show the saved remotes: engines on other machines for --connect NAME.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'demo' -d 'Try haul without the internet: serves generated files on loopback and opens the UI with them queued.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" i input-file' -s 'i' -l 'input-file' -d 'Read URLs from a file (\'-\' for standard input): one per line, or aria2\'s input-file format (indented dir=, out=, checksum=, header=, split=, max-connection-per-server= lines under a URL).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" d directory' -s 'd' -l 'directory' -d 'Directory to save into (created if missing).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" o output' -s 'o' -l 'output' -d 'File name to save as (one URL only).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" checksum' -l 'checksum' -d 'Expected checksum, TYPE=HEX with TYPE md5, sha-1, sha-224, sha-256, sha-384 or sha-512; a mismatch fails the download.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" sha256' -l 'sha256' -d 'Expected SHA-256 (same as --checksum sha-256=HEX).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" checksum-file' -l 'checksum-file' -d 'A file as sha256sum, sha512sum, sha1sum or md5sum write it; each download is checked against the line for its file name.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add"' -l 'header' -d 'A request header, \'Name: value\' (repeatable).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" load-cookies' -l 'load-cookies' -d 'Cookies to send, from a cookies.txt file (Netscape format, as curl -b, wget and aria2c read it); default: \'haul cookies\'.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" proxy' -l 'proxy' -d 'Its own proxy: http://host:port, socks5://host:port, socks5h://host:port, or none (see haul proxy).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" netrc-file' -l 'netrc-file' -d 'Logins for the hosts you name, from this netrc file (default: $NETRC, else ~/.netrc); never sent to another host or a mirror.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add"' -l 'mirror' -d 'Another URL of the same file (repeatable, one URL only): the file is fetched from all of them at once.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" no-mirrors' -l 'no-mirrors' -d 'Use no mirrors or checksums that servers name in Link and Digest headers or Metalink documents.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" connections x' -s 'x' -l 'connections' -d 'Most connections per file, 1-32 (default: \'haul connections\', 8). Servers that serve ranges get several; others one.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" limit' -l 'limit' -d 'Its own speed limit, e.g. 500K or 2M.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" allow-metered' -l 'allow-metered' -d 'Allow this download on a metered network.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" paused' -l 'paused' -d 'Add it paused.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" start' -l 'start' -d 'Start the background daemon when nothing runs the downloads yet.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul ls" json' -l 'json' -d 'Print JSON for scripts.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul ls" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul ls" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul ls" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul ls" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" concurrency j' -s 'j' -l 'concurrency' -d 'How many downloads run at once (saved for next time).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" on-complete' -l 'on-complete' -d 'A command run for each finished download, with the file\'s path as its last argument, e.g. \'mpv --fs\'. Run directly, not through a shell.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" on-error' -l 'on-error' -d 'A command run for each download that fails (not one you cancel), with the file\'s path last.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" on-queue-empty' -l 'on-queue-empty' -d 'A command run once each time the queue drains, e.g. \'systemctl suspend\'.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" hook-args' -l 'hook-args' -d 'haul: the path is the last argument; aria2: GID, number of files and path, as aria2 calls its hooks.' -rfka 'haul aria2'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" hook-time-limit' -l 'hook-time-limit' -d 'Seconds a hook may run before it is stopped (default 600).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul pause" all' -l 'all' -d 'Act on every download.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul pause" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul pause" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul pause" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul pause" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul pause" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul resume" all' -l 'all' -d 'Act on every download.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul resume" allow-metered' -l 'allow-metered' -d 'Also allow these downloads on a metered network.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul resume" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul resume" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul resume" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul resume" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul resume" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cancel" all' -l 'all' -d 'Act on every download.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cancel" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cancel" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cancel" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cancel" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cancel" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rm" all' -l 'all' -d 'Act on every download.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rm" delete-file' -l 'delete-file' -d 'Also delete the downloaded files of finished downloads.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rm" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rm" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rm" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rm" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul retry" all' -l 'all' -d 'Act on every download.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul retry" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul retry" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul retry" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul retry" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul retry" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul metered" -eq 1' -fka 'off on auto'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" limit' -l 'limit' -d 'Speed cap for allowed downloads while metered, e.g. 500K; \'none\' removes it.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" budget' -l 'budget' -d 'Data budget while metered, e.g. 500M/day or 10G/month; \'none\' lifts it.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" json' -l 'json' -d 'Print the status as JSON for scripts.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul metered" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul limit" during' -l 'during' -d 'Apply the global limit only in this daily window, e.g. 09:00-17:00.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul limit" for' -l 'for' -d 'For each download from hosts matching this glob (see haul hosts).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul limit" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul limit" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul limit" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul limit" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul limit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul move" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul move" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul move" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul move" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul move" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul connections" for' -l 'for' -d 'For downloads from hosts matching this glob (see haul hosts).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul connections" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul connections" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul connections" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul connections" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul connections" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cookies" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cookies" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul cookies" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul verify" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul verify" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul verify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul refresh" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul refresh" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul refresh" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul refresh" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul refresh" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc" port' -l 'port' -d 'The port to listen on (default 6800, aria2\'s).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc" listen' -l 'listen' -d 'The address to listen on (default 127.0.0.1, this machine only).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc"' -l 'allow-dir' -d 'A directory calls may also put files in (besides the download directory); may be repeated.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rpc" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" exit-when-idle' -l 'exit-when-idle' -d 'Exit once nothing is left to download and no TUI is attached.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" stop' -l 'stop' -d 'Stop the daemon serving this state file.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" on-complete' -l 'on-complete' -d 'A command run for each finished download, with the file\'s path as its last argument, e.g. \'mpv --fs\'. Run directly, not through a shell.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" on-error' -l 'on-error' -d 'A command run for each download that fails (not one you cancel), with the file\'s path last.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" on-queue-empty' -l 'on-queue-empty' -d 'A command run once each time the queue drains, e.g. \'systemctl suspend\'.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" hook-args' -l 'hook-args' -d 'haul: the path is the last argument; aria2: GID, number of files and path, as aria2 calls its hooks.' -rfka 'haul aria2'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" hook-time-limit' -l 'hook-time-limit' -d 'Seconds a hook may run before it is stopped (default 600).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul daemon" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul service" -eq 1' -fa 'install' -d 'Write and enable haul.socket and haul.service (and haul-rpc.socket while RPC is on).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul service" -eq 1' -fa 'uninstall' -d 'Stop, disable and remove haul\'s units (downloads are kept).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul service" -eq 1' -fa 'status' -d 'Say what is installed, enabled, running and lingering.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service install" now' -l 'now' -d 'Start listening now, not only from the next login.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service install" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service install" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service install" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service uninstall" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service uninstall" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service uninstall" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service status" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service status" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul service status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" on-complete' -l 'on-complete' -d 'A command run for each finished download, with the file\'s path as its last argument, e.g. \'mpv --fs\'. Run directly, not through a shell.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" on-error' -l 'on-error' -d 'A command run for each download that fails (not one you cancel), with the file\'s path last.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" on-queue-empty' -l 'on-queue-empty' -d 'A command run once each time the queue drains, e.g. \'systemctl suspend\'.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" hook-args' -l 'hook-args' -d 'haul: the path is the last argument; aria2: GID, number of files and path, as aria2 calls its hooks.' -rfka 'haul aria2'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" hook-time-limit' -l 'hook-time-limit' -d 'Seconds a hook may run before it is stopped (default 600).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" clear' -l 'clear' -d 'Remove every saved hook.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hooks" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul rules" -eq 1' -fa 'ls' -d 'List the rules in order.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul rules" -eq 1' -fa 'add' -d 'Add a rule at the end (or --first).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul rules" -eq 1' -fa 'rm' -d 'Remove rule N (as listed).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul rules" -eq 1' -fa 'test' -d 'Say where a file of this name (or from this URL) would go.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules ls" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules add" first' -l 'first' -d 'Put it before the other rules.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules add" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules rm" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules test" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul rules test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul proxy" for' -l 'for' -d 'Only for hosts matching this glob, e.g. \'*.example.org\'.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul proxy" unset' -l 'unset' -d 'Remove the proxy (the global one, or the --for rule).'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul proxy" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul proxy" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul proxy" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hosts" for' -l 'for' -d 'The host pattern to change.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hosts"' -l 'header' -d 'A request header for those hosts, \'Name: value\' (repeatable).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hosts" clear' -l 'clear' -d 'Remove every setting kept for the pattern (not its proxy).'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hosts" state' -l 'state' -d 'The state file.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hosts" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul hosts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul remote" -eq 1' -fa 'ls' -d 'List the saved remotes.'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul remote" -eq 1' -fa 'add' -d 'Save a remote (or change the one of that name).'
complete -c 'haul' -n '__haul_should_offer_completions_for_positional "haul remote" -eq 1' -fa 'rm' -d 'Forget a saved remote.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote ls" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote add" connect' -l 'connect' -d 'An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the name of a saved remote (\'haul remote add\').' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote add" secret' -l 'secret' -d 'The RPC secret: of --connect\'s engine (default: the saved remote\'s); with \'rpc on\', the one this machine\'s endpoint asks for (default: a new random one, kept).' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote add" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote rm" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul remote rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul demo" count' -l 'count' -d 'How many downloads to queue.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul demo" rate' -l 'rate' -d 'Per-download speed limit of the demo server, e.g. 300K or 1M.' -rfka ''
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul demo" version' -l 'version' -d 'Show the version.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'haul' -n '__haul_should_offer_completions_for_flags_or_options "haul help" version' -l 'version' -d 'Show the version.'
