
use builtin;
use str;

set edit:completion:arg-completer[oracle-cdc-doctor] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'oracle-cdc-doctor'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'oracle-cdc-doctor'= {
            cand -c 'Settings file (YAML, cdc.* keys)'
            cand --config 'Settings file (YAML, cdc.* keys)'
            cand --set 'Override one setting; repeatable; wins over the file and the environment'
            cand --color 'When to colour output'
            cand --format 'Output format'
            cand --check 'Run only this check or area (repeatable, or comma-separated), e.g. redo or redo.archivelog'
            cand --skip 'Leave this check or area out (repeatable, or comma-separated; the names --check takes)'
            cand --fail-on 'The worst result that still exits 0 is the one below this: `fail` (default) exits 1 when a check FAILs, `warn` when one WARNs or FAILs (a CI gate, like DMS''s FailOnAssessmentFailure)'
            cand -q 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
            cand --quiet 'Print only results, errors and what the work is held up by (a broker, a database, a log)'
            cand -v 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More log output on stderr (-v info, -vv debug, -vvv trace)'
            cand --print-settings 'Validate the settings, print the effective values (secrets redacted) and exit'
            cand --strict 'Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check WARNs (the same as --fail-on warn)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}
