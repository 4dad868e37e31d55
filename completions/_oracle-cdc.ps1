
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'oracle-cdc' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'oracle-cdc'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'oracle-cdc' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('emulator', 'emulator', [CompletionResultType]::ParameterValue, 'The embedded Oracle emulator: init, workload, dump, status')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'One-off snapshot_only export of tables to files')
            [CompletionResult]::new('plan-chunks', 'plan-chunks', [CompletionResultType]::ParameterValue, 'Show how each table would be cut into chunks')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain a CDC-NNNN error code')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print man pages')
            break
        }
        'oracle-cdc;emulator' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an emulated database in a directory from a schema file')
            [CompletionResult]::new('workload', 'workload', [CompletionResultType]::ParameterValue, 'Run transactions against an emulated database')
            [CompletionResult]::new('dump', 'dump', [CompletionResultType]::ParameterValue, 'Print a table''s rows as of an SCN')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show an emulated database''s SCN, tables, logs, undo and open transactions')
            break
        }
        'oracle-cdc;emulator;init' {
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Schema file (YAML)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the initial rows'' values (default: the schema''s seed)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;emulator;workload' {
            [CompletionResult]::new('--transactions', '--transactions', [CompletionResultType]::ParameterName, 'Stop after this many committed or rolled-back transactions')
            [CompletionResult]::new('--duration', '--duration', [CompletionResultType]::ParameterName, 'Stop after this long, e.g. 30s, 5m, 1h')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'Transactions per second (0: as fast as possible)')
            [CompletionResult]::new('--mix', '--mix', [CompletionResultType]::ParameterName, 'Operation mix as weights, e.g. insert=50,update=40,delete=10')
            [CompletionResult]::new('--tx-size', '--tx-size', [CompletionResultType]::ParameterName, 'Changes per transaction, as MIN..MAX')
            [CompletionResult]::new('--rollback-pct', '--rollback-pct', [CompletionResultType]::ParameterName, 'Percent of transactions that roll back')
            [CompletionResult]::new('--savepoint-pct', '--savepoint-pct', [CompletionResultType]::ParameterName, 'Percent of transactions that roll back to a savepoint part-way')
            [CompletionResult]::new('--key-update-pct', '--key-update-pct', [CompletionResultType]::ParameterName, 'Percent of updates that change a primary key value')
            [CompletionResult]::new('--row-move-pct', '--row-move-pct', [CompletionResultType]::ParameterName, 'Percent of updates on row-movement tables that move the row to another partition or block')
            [CompletionResult]::new('--long-every', '--long-every', [CompletionResultType]::ParameterName, 'Start a long-running transaction every N transactions (0: never)')
            [CompletionResult]::new('--long-span', '--long-span', [CompletionResultType]::ParameterName, 'Transactions a long-running one stays open across')
            [CompletionResult]::new('--ddl-every', '--ddl-every', [CompletionResultType]::ParameterName, 'Run an ADD/DROP COLUMN every N transactions (0: never)')
            [CompletionResult]::new('--shared-commit-pct', '--shared-commit-pct', [CompletionResultType]::ParameterName, 'Percent of commits that share their commit SCN with the previous commit')
            [CompletionResult]::new('--tables', '--tables', [CompletionResultType]::ParameterName, 'Only these tables (default: every table)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the workload''s random choices')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;emulator;dump' {
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'The table, as PDB.OWNER.TABLE or OWNER.TABLE')
            [CompletionResult]::new('--scn', '--scn', [CompletionResultType]::ParameterName, 'Read as of this SCN (default: the current SCN)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--rowid', '--rowid', [CompletionResultType]::ParameterName, 'Add each row''s ROWID as a "ROWID" field/column')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;emulator;status' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;snapshot' {
            [CompletionResult]::new('--tables', '--tables', [CompletionResultType]::ParameterName, 'Only these captured tables (default: every captured table)')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Directory of the files, the manifest and the resume state')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'File format')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'JSON lines of full records (Debezium envelope, op r) instead of plain rows')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;plan-chunks' {
            [CompletionResult]::new('--tables', '--tables', [CompletionResultType]::ParameterName, 'Only these captured tables (default: every captured table)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;explain' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List every code with its title')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;completions' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'oracle-cdc;man' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write every page into this directory instead')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
