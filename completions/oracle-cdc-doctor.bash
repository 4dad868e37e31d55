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
                    _oracle_cdc_doctor_set_keys
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

# Added by oracle-cdc (src/cli/docs.rs): the setting keys after --set, and table names,
# which only the database knows, from the binary (it prints nothing where no table goes).
_oracle_cdc_doctor_set_keys() {
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
_oracle_cdc_doctor_tables() {
    local IFS=$'\n'
    COMPREPLY=($("${COMP_WORDS[0]}" __complete tables "${COMP_LINE:0:COMP_POINT}" 2>/dev/null))
    [[ ${#COMPREPLY[@]} -gt 0 ]]
}
