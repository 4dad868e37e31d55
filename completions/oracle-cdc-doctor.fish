complete -c oracle-cdc-doctor -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc-doctor -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_doctor_set_keys)"
complete -c oracle-cdc-doctor -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc-doctor -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc-doctor -l check -d 'Run only this check or area (repeatable, or comma-separated), e.g. redo or redo.archivelog' -r -f -a "connection\t''
redo\t''
supplemental\t''
privileges\t''
undo\t''
tables\t''
settings\t''
sink\t''
connection.driver\t''
connection.client\t''
connection.login\t''
connection.password\t''
connection.version\t''
connection.character-sets\t''
connection.multitenant\t''
connection.role\t''
connection.mining\t''
redo.archivelog\t''
redo.force-logging\t''
redo.archive-dest\t''
redo.log-size\t''
redo.switch-rate\t''
redo.retention\t''
supplemental.database\t''
supplemental.table\t''
privileges.catalog\t''
privileges.snapshot\t''
privileges.logmining\t''
privileges.rowid-chunking\t''
privileges.multitenant\t''
undo.retention\t''
tables.selection\t''
tables.keys\t''
tables.row-movement-rowid\t''
tables.iot-key\t''
tables.column-types\t''
tables.name-length\t''
tables.access-policies\t''
tables.lob\t''
tables.estimate\t''
settings.mode\t''
settings.sessions\t''
settings.call-limits\t''
settings.references\t''
settings.memory\t''
sink.kafka\t''
sink.kafka.topics\t''"
complete -c oracle-cdc-doctor -l skip -d 'Leave this check or area out (repeatable, or comma-separated; the names --check takes)' -r -f -a "connection\t''
redo\t''
supplemental\t''
privileges\t''
undo\t''
tables\t''
settings\t''
sink\t''
connection.driver\t''
connection.client\t''
connection.login\t''
connection.password\t''
connection.version\t''
connection.character-sets\t''
connection.multitenant\t''
connection.role\t''
connection.mining\t''
redo.archivelog\t''
redo.force-logging\t''
redo.archive-dest\t''
redo.log-size\t''
redo.switch-rate\t''
redo.retention\t''
supplemental.database\t''
supplemental.table\t''
privileges.catalog\t''
privileges.snapshot\t''
privileges.logmining\t''
privileges.rowid-chunking\t''
privileges.multitenant\t''
undo.retention\t''
tables.selection\t''
tables.keys\t''
tables.row-movement-rowid\t''
tables.iot-key\t''
tables.column-types\t''
tables.name-length\t''
tables.access-policies\t''
tables.lob\t''
tables.estimate\t''
settings.mode\t''
settings.sessions\t''
settings.call-limits\t''
settings.references\t''
settings.memory\t''
sink.kafka\t''
sink.kafka.topics\t''"
complete -c oracle-cdc-doctor -l fail-on -d 'The worst result that still exits 0 is the one below this: `fail` (default) exits 1 when a check FAILs, `warn` when one WARNs or FAILs (a CI gate, like DMS\'s FailOnAssessmentFailure)' -r -f -a "warn\t''
fail\t''"
complete -c oracle-cdc-doctor -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc-doctor -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc-doctor -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc-doctor -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc-doctor -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc-doctor -s V -l version -d 'Print version'
# Added by oracle-cdc (src/cli/docs.rs): the setting keys after --set, and table names,
# which only the database knows, from the binary (it prints nothing where no table goes).
function __fish_oracle_cdc_doctor_set_keys
    printf '%s\n' \
        cdc.database.url= \
        cdc.database.user= \
        cdc.database.password= \
        cdc.database.driver= \
        cdc.mining.database.url= \
        cdc.mining.database.user= \
        cdc.mining.database.password= \
        cdc.mining.dictionary= \
        cdc.mining.dictionary.build= \
        cdc.mining.idle.thread.ms= \
        cdc.mining.gap.timeout.ms= \
        cdc.database.read.only= \
        cdc.database.connect.retries= \
        cdc.database.call.timeout.ms= \
        cdc.database.connect.timeout.ms= \
        cdc.database.sdu= \
        cdc.database.wallet.location= \
        cdc.database.wallet.password= \
        cdc.database.connect.backoff.ms= \
        cdc.database.connect.backoff.max.ms= \
        cdc.database.reconnect.max.ms= \
        cdc.state.dir= \
        cdc.files.group.readable= \
        cdc.snapshot.mode= \
        cdc.snapshot.chunk.rows= \
        cdc.snapshot.threads= \
        cdc.snapshot.max.pending.chunks= \
        cdc.snapshot.chunk.retries= \
        cdc.snapshot.chunk.ddl.retries= \
        cdc.snapshot.parquet.file.rows= \
        cdc.snapshot.parquet.compression= \
        cdc.snapshot.max.rows.per.second= \
        cdc.snapshot.max.rows.per.second. \
        cdc.snapshot.select.override. \
        cdc.snapshot.tables.order= \
        cdc.snapshot.access.policies= \
        cdc.snapshot.new.tables= \
        cdc.columns.exclude= \
        cdc.key. \
        cdc.key.unchecked= \
        cdc.key.missing= \
        cdc.on.decode.error= \
        cdc.on.unsupported.redo= \
        cdc.tables.include= \
        cdc.tables.exclude= \
        cdc.sink.type= \
        cdc.sink.dir= \
        cdc.sink.format= \
        cdc.sink.segment.bytes= \
        cdc.sink.kafka.brokers= \
        cdc.sink.kafka.security.protocol= \
        cdc.sink.kafka.ssl.ca.location= \
        cdc.sink.kafka.sasl.mechanism= \
        cdc.sink.kafka.sasl.username= \
        cdc.sink.kafka.sasl.password= \
        cdc.sink.kafka.transactional.id= \
        cdc.sink.kafka.compression= \
        cdc.sink.kafka.max.in.flight.bytes= \
        cdc.sink.kafka.topic.ops= \
        cdc.sink.kafka.topic.dlq= \
        cdc.sink.kafka.topic.offsets= \
        cdc.sink.kafka.topic.partitions= \
        cdc.sink.kafka.producer.acks= \
        cdc.sink.kafka.producer.enable.idempotence= \
        cdc.sink.kafka.producer.client.id= \
        cdc.sink.kafka.producer.request.timeout.ms= \
        cdc.sink.kafka.producer.retry.backoff.ms= \
        cdc.sink.kafka.producer.retry.backoff.max.ms= \
        cdc.sink.kafka.producer.delivery.timeout.ms= \
        cdc.sink.kafka.producer.transaction.timeout.ms= \
        cdc.sink.kafka.producer.batch.size= \
        cdc.sink.topic.prefix= \
        cdc.stream.window.scn= \
        cdc.stream.window.scn.max= \
        cdc.stream.poll.ms= \
        cdc.stream.buffer.memory.bytes= \
        cdc.doctor.read.rate= \
        cdc.heartbeat.interval.ms= \
        cdc.metrics.interval.ms= \
        cdc.metrics.listen= \
        cdc.signal.enabled.channels= \
        cdc.signal.data.collection= \
        cdc.signal.concurrent= \
        cdc.signal.poll.ms= \
        cdc.emulator.fault.seed= \
        cdc.emulator.fault.connect.fail.every= \
        cdc.emulator.fault.drop.per.mille= \
        cdc.emulator.fault.ora01555.reads= \
        cdc.emulator.fault.ora00310.mines= \
        cdc.emulator.fault.ora01284.mines= \
        cdc.emulator.fault.ora00308.mines= \
        cdc.emulator.fault.ora01307.mines= \
        cdc.emulator.fault.ora22924.reads= \
        cdc.emulator.fault.ora04030.reads= \
        cdc.emulator.fault.read.delay.ms= \
        cdc.emulator.fault.call.latency.ms= \
        cdc.emulator.fault.slow.call.every= \
        cdc.emulator.fault.slow.call.ms= \
        cdc.emulator.fault.kill.session.every= \
        cdc.emulator.fault.restart.every= \
        cdc.emulator.fault.restart.ms= \
        cdc.emulator.fault.idle.timeout.ms= \
        cdc.emulator.fault.dead.connection.ms= \
        cdc.emulator.fault.connect.time.ms= \
        cdc.emulator.fault.ora01368.mines= \
        cdc.emulator.fault.ora01291.mines= \
        cdc.emulator.fault.ora01343.mines= \
        cdc.emulator.fault.ora04030.mines= \
        cdc.emulator.fault.ora00600.mines= \
        cdc.emulator.fault.ora01327.builds= \
        cdc.emulator.fault.ora00604.mines= \
        cdc.emulator.fault.register.delay.ms= \
        cdc.emulator.fault.unescaped.quotes.tables= \
        cdc.emulator.fault.dictionary.mismatch.tables= \
        cdc.emulator.fault.unknown.objects.tables= \
        cdc.emulator.fault.sink.delay.ms= \
        cdc.decimal.handling.mode= \
        cdc.time.precision.mode= \
        cdc.interval.handling.mode= \
        cdc.binary.handling.mode= \
        cdc.tombstones.on.delete= \
        cdc.provide.transaction.metadata= \
        cdc.include.schema.changes= \
        cdc.skipped.operations= \
        cdc.value.converter.schemas.enable= \
        cdc.key.converter.schemas.enable= \
        cdc.topic.transaction= \
        cdc.topic.include.pdb=
end
function __fish_oracle_cdc_doctor_tables
    set -l bin (commandline -opc)[1]
    $bin __complete tables (commandline -cp) 2>/dev/null
end
