//! A user-supplied SQL condition (a snapshot filter, a signal's additional-conditions) is pasted
//! into a WHERE clause: one check, used by the settings and by the Oracle adapter, makes sure it
//! cannot end the statement, comment out the rest, bind anything or escape its parentheses.

fn is_identifier_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '#')
}

/// Whether the `'` at `i` opens an alternative-quoting literal (`q'[…]'`, `Nq'{…}'`): it follows
/// a `q` that starts a token, or an `nq` that does.
fn opens_q_quote(chars: &[char], i: usize) -> bool {
    let starts_token = |j: usize| j == 0 || !is_identifier_char(chars[j - 1]);
    if i >= 1 && matches!(chars[i - 1], 'q' | 'Q') {
        if starts_token(i - 1) {
            return true;
        }
        return i >= 2 && matches!(chars[i - 2], 'n' | 'N') && starts_token(i - 2);
    }
    false
}

/// The extra condition as it goes into the WHERE clause: `(<filter>)`, the only text of a
/// flashback read that does not come from the builder. It understands Oracle's literals (`'it''s'`,
/// `q'[…]'`) and quoted identifiers, and also refuses unbalanced parentheses (which could close
/// the builder's `(` and OR past the range predicate: `1 = 1) OR (1 = 1`) and bind variables
/// (nothing would bind them).
pub fn filter_condition(filter: &str) -> Result<String, String> {
    let text = filter.trim();
    let refuse = |why: &str| Err(format!("the filter `{text}` {why}"));
    if text.is_empty() {
        return refuse("is empty");
    }
    let chars: Vec<char> = text.chars().collect();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\'' if opens_q_quote(&chars, i) => {
                let close = match chars.get(i + 1) {
                    Some('[') => ']',
                    Some('{') => '}',
                    Some('(') => ')',
                    Some('<') => '>',
                    Some(c) if !c.is_whitespace() && *c != '\'' => *c,
                    _ => return refuse("has an invalid q'…' literal"),
                };
                let mut j = i + 2;
                while j + 1 < chars.len() && !(chars[j] == close && chars[j + 1] == '\'') {
                    j += 1;
                }
                if j + 1 >= chars.len() {
                    return refuse("has an unterminated q'…' literal");
                }
                i = j + 2;
                continue;
            }
            '\'' => {
                let mut j = i + 1;
                loop {
                    match chars.get(j) {
                        None => return refuse("has an unterminated string literal"),
                        Some('\'') if chars.get(j + 1) == Some(&'\'') => j += 2,
                        Some('\'') => break,
                        Some(_) => j += 1,
                    }
                }
                i = j + 1;
                continue;
            }
            '"' => match chars[i + 1..].iter().position(|&c| c == '"') {
                Some(n) => {
                    i += n + 2;
                    continue;
                }
                None => return refuse("has an unterminated quoted identifier"),
            },
            '(' => depth += 1,
            ')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return refuse("closes a parenthesis it did not open"),
            },
            ';' => return refuse("contains `;`"),
            ':' => return refuse("contains a bind variable (`:`)"),
            '-' if chars.get(i + 1) == Some(&'-') => return refuse("contains a comment"),
            '/' if chars.get(i + 1) == Some(&'*') => return refuse("contains a comment"),
            _ => {}
        }
        i += 1;
    }
    if depth != 0 {
        return refuse("has unbalanced parentheses");
    }
    Ok(format!("({text})"))
}
