
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'oracle-cdc-doctor' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'oracle-cdc-doctor'
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
        'oracle-cdc-doctor' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Settings file (YAML, cdc.* keys)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Override one setting; repeatable; wins over the file and the environment')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Run only this check or area (repeatable, or comma-separated), e.g. redo or redo.archivelog')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Leave this check or area out (repeatable, or comma-separated; the names --check takes)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'The worst result that still exits 0 is the one below this: `fail` (default) exits 1 when a check FAILs, `warn` when one WARNs or FAILs (a CI gate, like DMS''s FailOnAssessmentFailure)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results, errors and what the work is held up by (a broker, a database, a log)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results, errors and what the work is held up by (a broker, a database, a log)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--print-settings', '--print-settings', [CompletionResultType]::ParameterName, 'Validate the settings, print the effective values (secrets redacted) and exit')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)')
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
