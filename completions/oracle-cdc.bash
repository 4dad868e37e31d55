_oracle__cdc() {
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
                cmd="oracle__cdc"
                ;;
            oracle__cdc,capture)
                cmd="oracle__cdc__subcmd__capture"
                ;;
            oracle__cdc,completions)
                cmd="oracle__cdc__subcmd__completions"
                ;;
            oracle__cdc,doctor)
                cmd="oracle__cdc__subcmd__doctor"
                ;;
            oracle__cdc,emulator)
                cmd="oracle__cdc__subcmd__emulator"
                ;;
            oracle__cdc,explain)
                cmd="oracle__cdc__subcmd__explain"
                ;;
            oracle__cdc,man)
                cmd="oracle__cdc__subcmd__man"
                ;;
            oracle__cdc,offsets)
                cmd="oracle__cdc__subcmd__offsets"
                ;;
            oracle__cdc,plan-chunks)
                cmd="oracle__cdc__subcmd__plan__subcmd__chunks"
                ;;
            oracle__cdc,signal)
                cmd="oracle__cdc__subcmd__signal"
                ;;
            oracle__cdc,snapshot)
                cmd="oracle__cdc__subcmd__snapshot"
                ;;
            oracle__cdc__subcmd__emulator,build-dictionary)
                cmd="oracle__cdc__subcmd__emulator__subcmd__build__subcmd__dictionary"
                ;;
            oracle__cdc__subcmd__emulator,create)
                cmd="oracle__cdc__subcmd__emulator__subcmd__create"
                ;;
            oracle__cdc__subcmd__emulator,dump)
                cmd="oracle__cdc__subcmd__emulator__subcmd__dump"
                ;;
            oracle__cdc__subcmd__emulator,init)
                cmd="oracle__cdc__subcmd__emulator__subcmd__init"
                ;;
            oracle__cdc__subcmd__emulator,serve)
                cmd="oracle__cdc__subcmd__emulator__subcmd__serve"
                ;;
            oracle__cdc__subcmd__emulator,status)
                cmd="oracle__cdc__subcmd__emulator__subcmd__status"
                ;;
            oracle__cdc__subcmd__emulator,workload)
                cmd="oracle__cdc__subcmd__emulator__subcmd__workload"
                ;;
            oracle__cdc__subcmd__offsets,edit)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit"
                ;;
            oracle__cdc__subcmd__offsets,inspect)
                cmd="oracle__cdc__subcmd__offsets__subcmd__inspect"
                ;;
            oracle__cdc__subcmd__offsets,reset)
                cmd="oracle__cdc__subcmd__offsets__subcmd__reset"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,apply)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__apply"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,drop-signal)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__drop__subcmd__signal"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,forget-table)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__forget__subcmd__table"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,mark-done)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__mark__subcmd__done"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,reset-table)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__reset__subcmd__table"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,set-scn)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__set__subcmd__scn"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,set-sink)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__set__subcmd__sink"
                ;;
            oracle__cdc__subcmd__offsets__subcmd__edit,set-topic-naming)
                cmd="oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__set__subcmd__topic__subcmd__naming"
                ;;
            oracle__cdc__subcmd__signal,send)
                cmd="oracle__cdc__subcmd__signal__subcmd__send"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        oracle__cdc)
            opts="-c -q -v -h -V --config --set --quiet --verbose --color --print-settings --strict --help --version emulator capture snapshot plan-chunks offsets signal doctor explain completions man"
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
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__capture)
            opts="-c -q -v -h -V --stop-at-scn --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --stop-at-scn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__completions)
            opts="-c -q -v -h -V --config --set --quiet --verbose --color --print-settings --strict --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
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
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__doctor)
            opts="-c -q -v -h -V --format --check --skip --fail-on --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --check)
                    COMPREPLY=($(compgen -W "connection redo supplemental privileges undo tables settings sink connection.driver connection.client connection.login connection.password connection.version connection.character-sets connection.multitenant connection.role connection.mining redo.archivelog redo.force-logging redo.archive-dest redo.log-size redo.switch-rate redo.retention supplemental.database supplemental.table privileges.catalog privileges.snapshot privileges.logmining privileges.rowid-chunking privileges.multitenant undo.retention tables.selection tables.keys tables.row-movement-rowid tables.iot-key tables.column-types tables.name-length tables.access-policies tables.lob tables.estimate settings.mode settings.sessions settings.call-limits settings.references settings.memory sink.kafka sink.kafka.topics" -- "${cur}"))
                    return 0
                    ;;
                --skip)
                    COMPREPLY=($(compgen -W "connection redo supplemental privileges undo tables settings sink connection.driver connection.client connection.login connection.password connection.version connection.character-sets connection.multitenant connection.role connection.mining redo.archivelog redo.force-logging redo.archive-dest redo.log-size redo.switch-rate redo.retention supplemental.database supplemental.table privileges.catalog privileges.snapshot privileges.logmining privileges.rowid-chunking privileges.multitenant undo.retention tables.selection tables.keys tables.row-movement-rowid tables.iot-key tables.column-types tables.name-length tables.access-policies tables.lob tables.estimate settings.mode settings.sessions settings.call-limits settings.references settings.memory sink.kafka sink.kafka.topics" -- "${cur}"))
                    return 0
                    ;;
                --fail-on)
                    COMPREPLY=($(compgen -W "warn fail" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator)
            opts="-c -q -v -h -V --config --set --quiet --verbose --color --print-settings --strict --help --version init create workload dump status serve build-dictionary"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
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
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator__subcmd__build__subcmd__dictionary)
            opts="-c -q -v -h -V --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
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
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator__subcmd__create)
            opts="-c -q -v -h -V --standby-of --apply-lag-scn --downstream-of --shipping --from-sequence --missing-sequence --name --dbid --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --standby-of)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --apply-lag-scn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --downstream-of)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shipping)
                    COMPREPLY=($(compgen -W "real-time archived" -- "${cur}"))
                    return 0
                    ;;
                --from-sequence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --missing-sequence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dbid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator__subcmd__dump)
            opts="-c -q -v -h -V --table --scn --format --rowid --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --table)
                    COMPREPLY=()
                    return 0
                    ;;
                --scn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "jsonl csv" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator__subcmd__init)
            opts="-c -q -v -h -V --schema --seed --if-missing --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --schema)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator__subcmd__serve)
            opts="-c -q -v -h -V --listen --format --sdu --tls-cert --tls-key --tls-client-ca --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --sdu)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-client-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator__subcmd__status)
            opts="-c -q -v -h -V --format --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__emulator__subcmd__workload)
            opts="-c -q -v -h -V --transactions --duration --rate --wait --mix --tx-size --rollback-pct --savepoint-pct --key-update-pct --row-move-pct --long-every --long-span --ddl-every --create-table-every --truncate-every --move-every --scn-jump-every --scn-jump --shared-commit-pct --lob-pct --lob-edit-pct --tables --seed --format --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --transactions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --duration)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tx-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rollback-pct)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --savepoint-pct)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-update-pct)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --row-move-pct)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --long-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --long-span)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddl-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --create-table-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --truncate-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --move-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scn-jump-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scn-jump)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shared-commit-pct)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lob-pct)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lob-edit-pct)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tables)
                    COMPREPLY=()
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__explain)
            opts="-c -q -v -h -V --list --oracle --format --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__man)
            opts="-c -q -v -h -V --out --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets)
            opts="-c -q -v -h -V --config --set --quiet --verbose --color --print-settings --strict --help --version inspect edit reset"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
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
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit)
            opts="-i -c -q -v -h -V --interactive --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__apply)
            opts="-c -q -v -h -V --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__drop__subcmd__signal)
            opts="-c -q -v -h -V --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__forget__subcmd__table)
            opts="-c -q -v -h -V --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__mark__subcmd__done)
            opts="-c -q -v -h -V --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__reset__subcmd__table)
            opts="-c -q -v -h -V --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__set__subcmd__scn)
            opts="-c -q -v -h -V --resume-scn --skip-xid --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --resume-scn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --skip-xid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__set__subcmd__sink)
            opts="-c -q -v -h -V --segment --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --segment)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__edit__subcmd__set__subcmd__topic__subcmd__naming)
            opts="-c -q -v -h -V --pdb --yes --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pdb)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__inspect)
            opts="-c -q -v -h -V --dir --offline --format --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__offsets__subcmd__reset)
            opts="-c -q -v -h -V --dry-run --force --dir --offline --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__plan__subcmd__chunks)
            opts="-c -q -v -h -V --tables --format --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --tables)
                    COMPREPLY=()
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__signal)
            opts="-c -q -v -h -V --config --set --quiet --verbose --color --print-settings --strict --help --version send"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
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
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__signal__subcmd__send)
            opts="-c -q -v -h -V --tables --filter --type --rows-per-second --id --channel --wait --timeout --dir --format --config --set --quiet --verbose --color --print-settings --strict --help --version execute-snapshot pause-snapshot resume-snapshot stop-snapshot set-throttle"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --tables)
                    COMPREPLY=()
                    return 0
                    ;;
                --filter)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -W "incremental blocking" -- "${cur}"))
                    return 0
                    ;;
                --rows-per-second)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -W "file source" -- "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        oracle__cdc__subcmd__snapshot)
            opts="-c -q -v -h -V --tables --out --format --records --csv-times --summary-format --config --set --quiet --verbose --color --print-settings --strict --help --version"
            if [[ ${cur} != -* ]] && _oracle_cdc_tables; then
                return 0
            fi
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --tables)
                    COMPREPLY=()
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "jsonl csv parquet" -- "${cur}"))
                    return 0
                    ;;
                --csv-times)
                    COMPREPLY=($(compgen -W "iso epoch" -- "${cur}"))
                    return 0
                    ;;
                --summary-format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    _oracle_cdc_set_keys
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
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
    complete -F _oracle__cdc -o nosort -o bashdefault -o default oracle-cdc
else
    complete -F _oracle__cdc -o bashdefault -o default oracle-cdc
fi

# Added by oracle-cdc (src/cli/docs.rs): the setting keys after --set, and table names,
# which only the database knows, from the binary (it prints nothing where no table goes).
_oracle_cdc_set_keys() {
    local keys=(
        cdc.database.url=
        cdc.database.user=
        cdc.database.password=
        cdc.database.driver=
        cdc.mining.database.url=
        cdc.mining.database.user=
        cdc.mining.database.password=
        cdc.mining.dictionary=
        cdc.mining.dictionary.build=
        cdc.mining.idle.thread.ms=
        cdc.mining.gap.timeout.ms=
        cdc.database.read.only=
        cdc.database.connect.retries=
        cdc.database.call.timeout.ms=
        cdc.database.connect.timeout.ms=
        cdc.database.sdu=
        cdc.database.wallet.location=
        cdc.database.wallet.password=
        cdc.database.connect.backoff.ms=
        cdc.database.connect.backoff.max.ms=
        cdc.database.reconnect.max.ms=
        cdc.state.dir=
        cdc.files.group.readable=
        cdc.snapshot.mode=
        cdc.snapshot.chunk.rows=
        cdc.snapshot.threads=
        cdc.snapshot.max.pending.chunks=
        cdc.snapshot.chunk.retries=
        cdc.snapshot.chunk.ddl.retries=
        cdc.snapshot.parquet.file.rows=
        cdc.snapshot.parquet.compression=
        cdc.snapshot.max.rows.per.second=
        cdc.snapshot.max.rows.per.second.
        cdc.snapshot.select.override.
        cdc.snapshot.tables.order=
        cdc.snapshot.access.policies=
        cdc.snapshot.new.tables=
        cdc.columns.exclude=
        cdc.key.
        cdc.key.unchecked=
        cdc.key.missing=
        cdc.on.decode.error=
        cdc.on.unsupported.redo=
        cdc.tables.include=
        cdc.tables.exclude=
        cdc.sink.type=
        cdc.sink.dir=
        cdc.sink.format=
        cdc.sink.segment.bytes=
        cdc.sink.kafka.brokers=
        cdc.sink.kafka.security.protocol=
        cdc.sink.kafka.ssl.ca.location=
        cdc.sink.kafka.sasl.mechanism=
        cdc.sink.kafka.sasl.username=
        cdc.sink.kafka.sasl.password=
        cdc.sink.kafka.transactional.id=
        cdc.sink.kafka.compression=
        cdc.sink.kafka.max.in.flight.bytes=
        cdc.sink.kafka.topic.ops=
        cdc.sink.kafka.topic.dlq=
        cdc.sink.kafka.topic.offsets=
        cdc.sink.kafka.topic.partitions=
        cdc.sink.kafka.producer.acks=
        cdc.sink.kafka.producer.enable.idempotence=
        cdc.sink.kafka.producer.client.id=
        cdc.sink.kafka.producer.request.timeout.ms=
        cdc.sink.kafka.producer.retry.backoff.ms=
        cdc.sink.kafka.producer.retry.backoff.max.ms=
        cdc.sink.kafka.producer.delivery.timeout.ms=
        cdc.sink.kafka.producer.transaction.timeout.ms=
        cdc.sink.kafka.producer.batch.size=
        cdc.sink.topic.prefix=
        cdc.stream.window.scn=
        cdc.stream.window.scn.max=
        cdc.stream.poll.ms=
        cdc.stream.buffer.memory.bytes=
        cdc.doctor.read.rate=
        cdc.heartbeat.interval.ms=
        cdc.metrics.interval.ms=
        cdc.metrics.listen=
        cdc.signal.enabled.channels=
        cdc.signal.data.collection=
        cdc.signal.concurrent=
        cdc.signal.poll.ms=
        cdc.emulator.fault.seed=
        cdc.emulator.fault.connect.fail.every=
        cdc.emulator.fault.drop.per.mille=
        cdc.emulator.fault.ora01555.reads=
        cdc.emulator.fault.ora00310.mines=
        cdc.emulator.fault.ora01284.mines=
        cdc.emulator.fault.ora00308.mines=
        cdc.emulator.fault.ora01307.mines=
        cdc.emulator.fault.ora22924.reads=
        cdc.emulator.fault.ora04030.reads=
        cdc.emulator.fault.read.delay.ms=
        cdc.emulator.fault.call.latency.ms=
        cdc.emulator.fault.slow.call.every=
        cdc.emulator.fault.slow.call.ms=
        cdc.emulator.fault.kill.session.every=
        cdc.emulator.fault.restart.every=
        cdc.emulator.fault.restart.ms=
        cdc.emulator.fault.idle.timeout.ms=
        cdc.emulator.fault.dead.connection.ms=
        cdc.emulator.fault.connect.time.ms=
        cdc.emulator.fault.ora01368.mines=
        cdc.emulator.fault.ora01291.mines=
        cdc.emulator.fault.ora01343.mines=
        cdc.emulator.fault.ora04030.mines=
        cdc.emulator.fault.ora00600.mines=
        cdc.emulator.fault.ora01327.builds=
        cdc.emulator.fault.ora00604.mines=
        cdc.emulator.fault.register.delay.ms=
        cdc.emulator.fault.unescaped.quotes.tables=
        cdc.emulator.fault.dictionary.mismatch.tables=
        cdc.emulator.fault.unknown.objects.tables=
        cdc.emulator.fault.sink.delay.ms=
        cdc.decimal.handling.mode=
        cdc.time.precision.mode=
        cdc.interval.handling.mode=
        cdc.binary.handling.mode=
        cdc.tombstones.on.delete=
        cdc.provide.transaction.metadata=
        cdc.include.schema.changes=
        cdc.skipped.operations=
        cdc.value.converter.schemas.enable=
        cdc.key.converter.schemas.enable=
        cdc.topic.transaction=
        cdc.topic.include.pdb=
    )
    COMPREPLY=($(compgen -W "${keys[*]}" -- "${cur}"))
    compopt -o nospace 2>/dev/null
}
_oracle_cdc_tables() {
    local IFS=$'\n'
    COMPREPLY=($("${COMP_WORDS[0]}" __complete tables "${COMP_LINE:0:COMP_POINT}" 2>/dev/null))
    [[ ${#COMPREPLY[@]} -gt 0 ]]
}
