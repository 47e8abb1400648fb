#!/bin/bash

__haul_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__haul_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__haul_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__haul_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_haul() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--no-mouse --version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--on-complete --on-error --on-queue-empty --hook-args --hook-time-limit --state --connect --secret)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--on-complete')
        return
        ;;
    '--on-error')
        return
        ;;
    '--on-queue-empty')
        return
        ;;
    '--hook-args')
        __haul_add_completions -W 'haul'$'\n''aria2'
        return
        ;;
    '--hook-time-limit')
        return
        ;;
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|ls|run|pause|resume|cancel|rm|retry|metered|limit|move|connections|cookies|verify|refresh|rpc|daemon|service|hooks|rules|proxy|hosts|remote|demo|help)
        # Offer subcommand argument completions
        "_haul_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add ls run pause resume cancel rm retry metered limit move connections cookies verify refresh rpc daemon service hooks rules proxy hosts remote demo help' -- "${cur}"))
        ;;
    esac
}

_haul_add() {
    repeating_flags=()
    non_repeating_flags=(--no-mirrors --allow-metered --paused --start --version -h --help)
    repeating_options=(--header --mirror)
    non_repeating_options=(-i --input-file -d --directory -o --output --checksum --sha256 --checksum-file --load-cookies --proxy --netrc-file -x --connections --limit --state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '-i'|'--input-file')
        return
        ;;
    '-d'|'--directory')
        return
        ;;
    '-o'|'--output')
        return
        ;;
    '--checksum')
        return
        ;;
    '--sha256')
        return
        ;;
    '--checksum-file')
        return
        ;;
    '--header')
        return
        ;;
    '--load-cookies')
        return
        ;;
    '--proxy')
        return
        ;;
    '--netrc-file')
        return
        ;;
    '--mirror')
        return
        ;;
    '-x'|'--connections')
        return
        ;;
    '--limit')
        return
        ;;
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_ls() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_run() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(-j --concurrency --on-complete --on-error --on-queue-empty --hook-args --hook-time-limit --state)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-j'|'--concurrency')
        return
        ;;
    '--on-complete')
        return
        ;;
    '--on-error')
        return
        ;;
    '--on-queue-empty')
        return
        ;;
    '--hook-args')
        __haul_add_completions -W 'haul'$'\n''aria2'
        return
        ;;
    '--hook-time-limit')
        return
        ;;
    '--state')
        return
        ;;
    esac
}

_haul_pause() {
    repeating_flags=()
    non_repeating_flags=(--all --version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_resume() {
    repeating_flags=()
    non_repeating_flags=(--all --allow-metered --version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_cancel() {
    repeating_flags=()
    non_repeating_flags=(--all --version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_rm() {
    repeating_flags=()
    non_repeating_flags=(--all --delete-file --version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_retry() {
    repeating_flags=()
    non_repeating_flags=(--all --version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_metered() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--limit --budget --state --connect --secret)
    __haul_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--limit')
        return
        ;;
    '--budget')
        return
        ;;
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __haul_add_completions -W 'off'$'\n''on'$'\n''auto'
        return
        ;;
    esac
}

_haul_limit() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--during --for --state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--during')
        return
        ;;
    '--for')
        return
        ;;
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_move() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_connections() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--for --state --connect --secret)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--for')
        return
        ;;
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_cookies() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--state)
    __haul_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    esac
}

_haul_verify() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--state)
    __haul_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    esac
}

_haul_refresh() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--state --connect --secret)
    __haul_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_rpc() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=(--allow-dir)
    non_repeating_options=(--port --connect --secret --listen --state)
    __haul_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--port')
        return
        ;;
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    '--listen')
        return
        ;;
    '--allow-dir')
        return
        ;;
    '--state')
        return
        ;;
    esac
}

_haul_daemon() {
    repeating_flags=()
    non_repeating_flags=(--exit-when-idle --stop --version -h --help)
    repeating_options=()
    non_repeating_options=(--on-complete --on-error --on-queue-empty --hook-args --hook-time-limit --state)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--on-complete')
        return
        ;;
    '--on-error')
        return
        ;;
    '--on-queue-empty')
        return
        ;;
    '--hook-args')
        __haul_add_completions -W 'haul'$'\n''aria2'
        return
        ;;
    '--hook-time-limit')
        return
        ;;
    '--state')
        return
        ;;
    esac
}

_haul_service() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    install|uninstall|status)
        # Offer subcommand argument completions
        "_haul_service_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'install uninstall status' -- "${cur}"))
        ;;
    esac
}

_haul_service_install() {
    repeating_flags=()
    non_repeating_flags=(--now --version -h --help)
    repeating_options=()
    non_repeating_options=(--state)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    esac
}

_haul_service_uninstall() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--state)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    esac
}

_haul_service_status() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--state)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--state')
        return
        ;;
    esac
}

_haul_hooks() {
    repeating_flags=()
    non_repeating_flags=(--clear --version -h --help)
    repeating_options=()
    non_repeating_options=(--on-complete --on-error --on-queue-empty --hook-args --hook-time-limit --state)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--on-complete')
        return
        ;;
    '--on-error')
        return
        ;;
    '--on-queue-empty')
        return
        ;;
    '--hook-args')
        __haul_add_completions -W 'haul'$'\n''aria2'
        return
        ;;
    '--hook-time-limit')
        return
        ;;
    '--state')
        return
        ;;
    esac
}

_haul_rules() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|add|rm|test)
        # Offer subcommand argument completions
        "_haul_rules_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls add rm test' -- "${cur}"))
        ;;
    esac
}

_haul_rules_ls() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 0
}

_haul_rules_add() {
    repeating_flags=()
    non_repeating_flags=(--first --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 2
}

_haul_rules_rm() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 1
}

_haul_rules_test() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 1
}

_haul_proxy() {
    repeating_flags=()
    non_repeating_flags=(--unset --version -h --help)
    repeating_options=()
    non_repeating_options=(--for --state)
    __haul_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--for')
        return
        ;;
    '--state')
        return
        ;;
    esac
}

_haul_hosts() {
    repeating_flags=()
    non_repeating_flags=(--clear --version -h --help)
    repeating_options=(--header)
    non_repeating_options=(--for --state)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--for')
        return
        ;;
    '--header')
        return
        ;;
    '--state')
        return
        ;;
    esac
}

_haul_remote() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|add|rm)
        # Offer subcommand argument completions
        "_haul_remote_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls add rm' -- "${cur}"))
        ;;
    esac
}

_haul_remote_ls() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 0
}

_haul_remote_add() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--connect --secret)
    __haul_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--connect')
        return
        ;;
    '--secret')
        return
        ;;
    esac
}

_haul_remote_rm() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options 1
}

_haul_demo() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--count --rate)
    __haul_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--count')
        return
        ;;
    '--rate')
        return
        ;;
    esac
}

_haul_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __haul_offer_flags_options -1
}

complete -o filenames -F _haul haul
