# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_oracle_cdc_global_optspecs
    string join \n c/config= set= q/quiet v/verbose color= print-settings strict h/help V/version
end

function __fish_oracle_cdc_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_oracle_cdc_global_optspecs) -- $cmd 2>/dev/null
    or return 0
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_oracle_cdc_using_subcommand
    set -l cmd (__fish_oracle_cdc_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "emulator" -d 'The embedded Oracle emulator: init, workload, dump, status'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "capture" -d 'Snapshot per cdc.snapshot.mode, then stream changes to the sink'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "snapshot" -d 'One-off snapshot_only export of tables to files'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "plan-chunks" -d 'Show how each table would be cut into chunks'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "offsets" -d 'Show or change the stored offsets: where capture is, what is left of the snapshot'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "signal" -d 'Send a signal to a running capture: snapshot tables, pause, resume, stop'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "doctor" -d 'Pre-flight checks of the database, the capture user and the settings'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "explain" -d 'Explain a CDC-NNNN error code, or what the tool does with an ORA-NNNNN error'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c oracle-cdc -n "__fish_oracle_cdc_needs_command" -f -a "man" -d 'Print man pages'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -f -a "init" -d 'Create an emulated database in a directory from a schema file'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -f -a "create" -d 'Create a physical standby or a downstream mining database of an emulated primary'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -f -a "workload" -d 'Run transactions against an emulated database'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -f -a "dump" -d 'Print a table\'s rows as of an SCN'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -f -a "status" -d 'Show an emulated database\'s SCN, tables, logs, undo and open transactions'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -f -a "serve" -d 'Serve an emulated database to Oracle clients over Oracle Net'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and not __fish_seen_subcommand_from init create workload dump status serve build-dictionary" -f -a "build-dictionary" -d 'Extract the LogMiner dictionary into an emulated database\'s redo (for downstream mining)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -l schema -d 'Schema file (YAML)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -l seed -d 'Seed of the initial rows\' values (default: the schema\'s seed)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -l if-missing -d 'When DIR already holds an emulated database, keep it as it is and succeed (scripts that are run again, like the README\'s main job)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l standby-of -d 'Make a physical standby of this primary directory' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l apply-lag-scn -d 'The standby\'s redo apply runs this many SCNs behind the primary' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l downstream-of -d 'Make a downstream mining database receiving this source directory\'s redo' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l shipping -d 'How the source\'s redo reaches the downstream' -r -f -a "real-time\t'Real-time downstream capture: redo arrives as the source writes it (standby redo logs), the current log included'
archived\t'Archived-log downstream capture: only archived logs arrive, after each log switch'"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l from-sequence -d 'Logs with a lower sequence number (on every thread) were never shipped' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l missing-sequence -d 'A log sequence (on every thread) lost in transport: a gap; repeat for more' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l name -d 'The downstream\'s DB_NAME' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l dbid -d 'The downstream\'s DBID (default: one that differs from the source\'s)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l transactions -d 'Stop after this many committed or rolled-back transactions' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l duration -d 'Stop after this long, e.g. 30s, 5m, 1h' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l rate -d 'Transactions per second (0: as fast as possible)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l mix -d 'Operation mix as weights, e.g. insert=50,update=40,delete=10' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l tx-size -d 'Changes per transaction, as MIN..MAX' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l rollback-pct -d 'Percent of transactions that roll back' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l savepoint-pct -d 'Percent of transactions that roll back to a savepoint part-way' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l key-update-pct -d 'Percent of updates that change a primary key value' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l row-move-pct -d 'Percent of updates on row-movement tables that move the row to another partition or block' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l long-every -d 'Start a long-running transaction every N transactions (0: never)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l long-span -d 'Transactions a long-running one stays open across' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l ddl-every -d 'Run an ADD/DROP COLUMN every N transactions (0: never)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l create-table-every -d 'CREATE TABLE every N transactions (0: never): a copy of the first table\'s layout named TABLE_NEW<k>, changed by later transactions like the others' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l truncate-every -d 'TRUNCATE TABLE one of the tables every N transactions (0: never): all its rows go in one DDL, its segment gets a new data object id' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l move-every -d 'ALTER TABLE … MOVE one of the tables every N transactions (0: never; MOVE PARTITION of one partition of a partitioned table): no row changes in the redo, one DDL, and every row of the segment gets a ROWID with a new data object number' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l scn-jump-every -d 'Every N transactions (0: never) raise the database\'s SCN by --scn-jump first, as a database link to a database further ahead does: SCNs with no redo, which capture mines in growing windows' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l scn-jump -d 'SCNs each jump of --scn-jump-every adds' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l shared-commit-pct -d 'Percent of commits that share their commit SCN with the previous commit' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l lob-pct -d 'Percent of CLOB, NCLOB, BLOB, JSON, XMLTYPE and extended VARCHAR2 values written longer than a row keeps (out of line: LOB_WRITE, XML DOC WRITE, 32K_WRITE rows)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l lob-edit-pct -d 'Percent of updates that change a CLOB or BLOB piece by piece through its locator (DBMS_LOB.WRITE at an offset, ERASE, TRIM); capture cannot rebuild those (CDC-3005)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l tables -d 'Only these tables (default: every table)' -r -f -a "(__fish_oracle_cdc_tables)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l seed -d 'Seed of the workload\'s random choices' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l format -d 'How the summary (the counts of what ran) is printed; json prints it even with --quiet' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l wait -d 'When another writer holds the database (a workload still running), wait for it to finish, saying so, then run (--duration counts from then) instead of failing with CDC-4003'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from workload" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l table -d 'The table, as PDB.OWNER.TABLE or OWNER.TABLE' -r -f -a "(__fish_oracle_cdc_tables)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l scn -d 'Read as of this SCN (default: the current SCN)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l format -d 'Output format' -r -f -a "jsonl\t''
csv\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l rowid -d 'Add each row\'s ROWID as a "ROWID" field/column'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from dump" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l listen -d 'The address to listen on; port 0 picks a free port (printed on start)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l format -d 'How the address and services are printed on start' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l sdu -d 'The largest session data unit a connection gets, in bytes (Oracle\'s DEFAULT_SDU_SIZE): a client asking for more gets this; default 8192 (65536 for a 23ai database)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l tls-cert -d 'Serve TCPS: this server certificate chain (PEM, the server\'s certificate first); URLs become tcps://ADDR:PORT/SERVICE, and clients need its CA in their wallet' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l tls-key -d 'The private key of --tls-cert (PEM, unencrypted)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l tls-client-ca -d 'Mutual TLS: require each client to present a certificate signed by a CA in this PEM file (Oracle\'s SSL_CLIENT_AUTHENTICATION=TRUE)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from serve" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand emulator; and __fish_seen_subcommand_from build-dictionary" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -l stop-at-scn -d 'Stop once every change committed up to this SCN is published (scripts, tests, migrations)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand capture" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l tables -d 'Only these captured tables (default: every captured table)' -r -f -a "(__fish_oracle_cdc_tables)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l out -d 'Directory of the files, the manifest and the resume state' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l format -d 'File format' -r -f -a "jsonl\t''
csv\t''
parquet\t'Parquet files with an Arrow schema from the Oracle types'"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l csv-times -d 'CSV: DATE and TIMESTAMP cells as ISO-8601 text (iso: 2024-02-14T10:58:02.202590) or as epoch milli-/micro-/nanoseconds like records (epoch)' -r -f -a "iso\t''
epoch\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l summary-format -d 'How the end summary (each table\'s chunks, rows, SCNs, files) is printed on stdout (--format is the files\' format)' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l records -d 'JSON lines of full records (Debezium envelope, op r) instead of plain rows'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand snapshot" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -l tables -d 'Only these captured tables (default: every captured table)' -r -f -a "(__fish_oracle_cdc_tables)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand plan-chunks" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -f -a "inspect" -d 'Show the stored offsets: stream position and lag, snapshot progress, signals, sink'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -f -a "edit" -d 'Change the stored offsets: validated, backed up, written atomically, diff shown'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and not __fish_seen_subcommand_from inspect edit reset" -f -a "reset" -d 'Forget every position, so the next start is a first start (with the safety of an edit)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -l offline -d 'Do not connect to the database (no lag or retained-log check)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from inspect" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -s i -l interactive -d 'Edit the offsets JSON in $VISUAL or $EDITOR instead of an operation: validated, diffed, confirmed'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "set-scn" -d 'Stream from a commit SCN on the next start'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "reset-table" -d 'Snapshot a table again, from its first row, on the next start'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "mark-done" -d 'Count a table\'s snapshot as done without reading the rest of it'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "forget-table" -d 'Remove everything the offsets hold about a table'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "drop-signal" -d 'Remove a running signal snapshot'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "apply" -d 'Replace the offsets with an edited offsets document from a file or stdin'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "set-sink" -d 'Set the file sink\'s acknowledged length (a position capture refused, CDC-7010)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and not __fish_seen_subcommand_from set-scn reset-table mark-done forget-table drop-signal apply set-sink set-topic-naming" -f -a "set-topic-naming" -d 'Store the topic naming the settings ask for (capture refused a change, CDC-7013)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l force -d 'Write a reset that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l offline -d 'Do not connect to the database (no DBID check; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from reset" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and not __fish_seen_subcommand_from send" -f -a "send" -d 'Check a signal and hand it to the running capture'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l tables -d 'Tables (PDB.OWNER.TABLE or OWNER.TABLE, comma-separated, or Debezium\'s regular expressions such as `SALES\\\\..*`, matched against the captured tables): what execute-snapshot reads, or what stop-snapshot stops' -r -f -a "(__fish_oracle_cdc_tables)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l filter -d 'A filter for one table of --tables: TABLE=CONDITION (a SQL condition, as in a WHERE clause; with --type blocking also `SELECT * FROM TABLE WHERE condition`); repeat for more tables' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l type -d 'execute-snapshot: incremental (streaming goes on) or blocking (streaming pauses)' -r -f -a "incremental\t''
blocking\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l rows-per-second -d 'set-throttle: rows per second snapshots may read from now on (0: no limit)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l id -d 'The signal\'s id (default: a fresh one); at most 42 characters of letters, digits, - _ . :' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l channel -d 'file: the state directory\'s spool (no database write); source: a row inserted into the signal table cdc.signal.data.collection (refused on a read-only database)' -r -f -a "file\t''
source\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l timeout -d 'With --wait: give up after this many seconds (CDC-8106)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l dir -d 'The state directory to signal (default: cdc.state.dir); a running export\'s --out directory takes set-throttle' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l format -d 'table: the id on a line; json: one object with the signal sent (and its outcome with --wait)' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l wait -d 'Follow the ops events until the signal is accepted or rejected (execute-snapshot: until its snapshot is done)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand signal; and __fish_seen_subcommand_from send" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l check -d 'Run only this check or area (repeatable, or comma-separated), e.g. redo or redo.archivelog' -r -f -a "connection\t''
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
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l skip -d 'Leave this check or area out (repeatable, or comma-separated; the names --check takes)' -r -f -a "connection\t''
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
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l fail-on -d 'The worst result that still exits 0 is the one below this: `fail` (default) exits 1 when a check FAILs, `warn` when one WARNs or FAILs (a CI gate, like DMS\'s FailOnAssessmentFailure)' -r -f -a "warn\t''
fail\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -l list -d 'List every code with its title, in code order'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -l oracle -d 'List the Oracle errors (ORA-, DPI-) the tool handles in a way of its own, and the code each becomes'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand explain" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand completions" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -l out -d 'Write every page into this directory instead' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -l color -d 'When to colour output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand man" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l resume-scn -d 'Restart mining at this SCN (at most SCN; default: SCN, or the stored resume SCN when older)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l skip-xid -d 'Leave out this transaction (16 hex digits, as V$LOGMNR_CONTENTS.XID; stored in lower case, as records carry it) that committed at SCN; repeatable' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-scn" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from drop-signal" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from apply" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l segment -d 'The segment (default: the stored one)' -r
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-sink" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l pdb -d 'Whether topics name the PDB (default: cdc.topic.include.pdb when it is true or false)' -r -f -a "true false"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l yes -d 'Write without asking for confirmation (only --interactive asks; taken before or after an operation too, so a script can always pass it)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l dry-run -d 'Print the diff and what would be skipped; write nothing'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l force -d 'Write an edit that skips data (the warning names what is lost)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l dir -d 'Directory holding offsets.json (default: cdc.state.dir; an export\'s --out directory works too)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l offline -d 'Do not connect to the database (no DBID or retained-log checks; a warning says so)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -s c -l config -d 'Settings file (YAML, cdc.* keys)' -r -F
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l set -d 'Override one setting; repeatable; wins over the file and the environment' -r -f -a "(__fish_oracle_cdc_set_keys)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -s q -l quiet -d 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l color -d 'When to colour output' -r -f -a "auto always never"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l print-settings -d 'Validate the settings, print the effective values (secrets redacted) and exit'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -l strict -d 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from set-topic-naming" -s V -l version -d 'Print version'
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from reset-table" -f -a "(__fish_oracle_cdc_tables)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from mark-done" -f -a "(__fish_oracle_cdc_tables)"
complete -c oracle-cdc -n "__fish_oracle_cdc_using_subcommand offsets; and __fish_seen_subcommand_from edit; and __fish_seen_subcommand_from forget-table" -f -a "(__fish_oracle_cdc_tables)"
# Added by oracle-cdc (src/cli/docs.rs): the setting keys after --set, and table names,
# which only the database knows, from the binary (it prints nothing where no table goes).
function __fish_oracle_cdc_set_keys
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
function __fish_oracle_cdc_tables
    set -l bin (commandline -opc)[1]
    $bin __complete tables (commandline -cp) 2>/dev/null
end
