_oracle__cdc__doctor() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="oracle__cdc__doctor"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        oracle__cdc__doctor)
            opts="-c -q -v -h -V --config --set --quiet --verbose --color --print-settings --strict --format --check --skip --fail-on --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --check)
                    COMPREPLY=($(compgen -W "connection redo supplemental privileges undo tables settings connection.driver connection.client connection.login connection.version connection.character-sets connection.multitenant connection.role connection.mining redo.archivelog redo.force-logging redo.archive-dest redo.log-size redo.switch-rate redo.retention supplemental.database supplemental.table privileges.catalog privileges.snapshot privileges.logmining privileges.rowid-chunking privileges.multitenant undo.retention tables.selection tables.keys tables.row-movement-rowid tables.iot-key tables.column-types tables.name-length tables.lob tables.estimate settings.mode settings.sessions settings.references settings.memory" -- "${cur}"))
                    return 0
                    ;;
                --skip)
                    COMPREPLY=($(compgen -W "connection redo supplemental privileges undo tables settings connection.driver connection.client connection.login connection.version connection.character-sets connection.multitenant connection.role connection.mining redo.archivelog redo.force-logging redo.archive-dest redo.log-size redo.switch-rate redo.retention supplemental.database supplemental.table privileges.catalog privileges.snapshot privileges.logmining privileges.rowid-chunking privileges.multitenant undo.retention tables.selection tables.keys tables.row-movement-rowid tables.iot-key tables.column-types tables.name-length tables.lob tables.estimate settings.mode settings.sessions settings.references settings.memory" -- "${cur}"))
                    return 0
                    ;;
                --fail-on)
                    COMPREPLY=($(compgen -W "warn fail" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _oracle__cdc__doctor -o nosort -o bashdefault -o default oracle-cdc-doctor
else
    complete -F _oracle__cdc__doctor -o bashdefault -o default oracle-cdc-doctor
fi
