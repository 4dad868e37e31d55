
use builtin;
use str;

set edit:completion:arg-completer[oracle-cdc] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'oracle-cdc'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'oracle-cdc'= {
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand emulator 'The embedded Oracle emulator: init, workload, dump, status'
            cand explain 'Explain a CDC-NNNN error code'
            cand completions 'Print a shell completion script'
            cand man 'Print man pages'
        }
        &'oracle-cdc;emulator'= {
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Create an emulated database in a directory from a schema file'
            cand workload 'Run transactions against an emulated database'
            cand dump 'Print a table''s rows as of an SCN'
            cand status 'Show an emulated database''s SCN, tables, logs, undo and open transactions'
        }
        &'oracle-cdc;emulator;init'= {
            cand --schema 'Schema file (YAML)'
            cand --seed 'Seed of the initial rows'' values (default: the schema''s seed)'
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'oracle-cdc;emulator;workload'= {
            cand --transactions 'Stop after this many committed or rolled-back transactions'
            cand --duration 'Stop after this long, e.g. 30s, 5m, 1h'
            cand --rate 'Transactions per second (0: as fast as possible)'
            cand --mix 'Operation mix as weights, e.g. insert=50,update=40,delete=10'
            cand --tx-size 'Changes per transaction, as MIN..MAX'
            cand --rollback-pct 'Percent of transactions that roll back'
            cand --savepoint-pct 'Percent of transactions that roll back to a savepoint part-way'
            cand --key-update-pct 'Percent of updates that change a primary key value'
            cand --row-move-pct 'Percent of updates on row-movement tables that move the row to another partition or block'
            cand --long-every 'Start a long-running transaction every N transactions (0: never)'
            cand --long-span 'Transactions a long-running one stays open across'
            cand --ddl-every 'Run an ADD/DROP COLUMN every N transactions (0: never)'
            cand --shared-commit-pct 'Percent of commits that share their commit SCN with the previous commit'
            cand --tables 'Only these tables (default: every table)'
            cand --seed 'Seed of the workload''s random choices'
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'oracle-cdc;emulator;dump'= {
            cand --table 'The table, as PDB.OWNER.TABLE or OWNER.TABLE'
            cand --scn 'Read as of this SCN (default: the current SCN)'
            cand --format 'Output format'
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand --rowid 'Add each row''s ROWID as a "ROWID" field/column'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'oracle-cdc;emulator;status'= {
            cand --format 'Output format'
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'oracle-cdc;explain'= {
            cand --format 'Output format'
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand --list 'List every code with its title'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'oracle-cdc;completions'= {
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'oracle-cdc;man'= {
            cand --out 'Write every page into this directory instead'
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand -q 'Print only results and errors'
            cand --quiet 'Print only results and errors'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}
