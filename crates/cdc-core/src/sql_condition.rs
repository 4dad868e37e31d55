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

/// The names a condition writes, outside its string literals: each unquoted word upper-cased
/// (as Oracle resolves it) and each quoted identifier as written. A superset of the columns it
/// references (a function's or a keyword's name is a word too): what decides whether a
/// column-level VPD policy applies may count a column the condition does not read, never miss
/// one it does.
pub fn condition_names(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut names: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\'' if !opens_q_quote(&chars, i) => {
                let mut j = i + 1;
                while j < chars.len() {
                    match chars[j] {
                        '\'' if chars.get(j + 1) == Some(&'\'') => j += 2,
                        '\'' => break,
                        _ => j += 1,
                    }
                }
                i = j + 1;
            }
            '"' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '"')
                    .map_or(chars.len(), |n| i + 1 + n);
                names.push(chars[i + 1..end].iter().collect());
                i = end + 1;
            }
            c if is_identifier_char(c) && !c.is_ascii_digit() => {
                let end = chars[i..]
                    .iter()
                    .position(|&c| !is_identifier_char(c))
                    .map_or(chars.len(), |n| i + n);
                names.push(chars[i..end].iter().collect::<String>().to_uppercase());
                i = end;
            }
            c if c.is_ascii_digit() => {
                // A number (`1e5`, `2.5`): its letters are not names.
                while i < chars.len() && (is_identifier_char(chars[i]) || chars[i] == '.') {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod condition_names_tests {
    #[test]
    fn names_are_words_and_quoted_identifiers_outside_literals() {
        assert_eq!(
            super::condition_names(
                "salary > 1e5 AND \"Mixed\" = 'BONUS ''x''' OR upper(dept_id) IN (1, 2.5)"
            ),
            ["AND", "DEPT_ID", "IN", "Mixed", "OR", "SALARY", "UPPER"]
        );
        // A q-quoted literal's words count (a superset is safe).
        assert!(super::condition_names("c = q'[SSN]'").contains(&"SSN".to_string()));
    }
}
