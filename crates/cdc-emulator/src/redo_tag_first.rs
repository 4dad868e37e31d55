//! Reading a JSON redo record with its tag first.
//!
//! [`Redo`](super::Redo) is written internally tagged (`{"k":"B","scn":…}`), and serde reads
//! such an enum by first buffering the whole record into its own tree of owned values (the tag
//! might come last), then reading the variant from that tree: about 17,000 instructions a line,
//! two thirds of opening an emulator with a busy redo, and again each time LogMiner reads a
//! record back. Every line the writer writes has the tag first, so the record can be read as
//! the externally tagged `{"B":{"scn":…}}`, which serde reads as it goes. [`redo_records!`]
//! declares the records once and makes both the public enum and that externally tagged twin
//! (deserialized only, converted field by field), so the two cannot differ in a field, a name
//! or a default. A line the fast path cannot read (the tag elsewhere, blanks between the
//! tokens, a record that does not parse) is read by the enum's own derive as before, so a
//! damaged line's error message is what it was.

/// Declares the redo record enum with its derives, and `TagFirst`: the same variants and
/// fields (with their serde attributes) externally tagged, and `From<TagFirst>` for the enum.
macro_rules! redo_records {
    (
        $(#[$enum_attr:meta])*
        pub enum $name:ident {
            $(
                $(#[$variant_attr:meta])*
                $variant:ident {
                    $( $(#[$field_attr:meta])* $field:ident : $ty:ty ),* $(,)?
                }
            ),* $(,)?
        }
    ) => {
        $(#[$enum_attr])*
        pub enum $name {
            $(
                $(#[$variant_attr])*
                $variant { $( $(#[$field_attr])* $field: $ty ),* }
            ),*
        }

        /// [`Redo`] externally tagged, for [`parse_tag_first`](tag_first::parse_tag_first).
        #[derive(Deserialize)]
        pub(crate) enum TagFirst {
            $(
                $(#[$variant_attr])*
                $variant { $( $(#[$field_attr])* $field: $ty ),* }
            ),*
        }

        impl From<TagFirst> for $name {
            fn from(record: TagFirst) -> $name {
                match record {
                    $( TagFirst::$variant { $($field),* } => $name::$variant { $($field),* } ),*
                }
            }
        }
    };
}

/// The record of a JSON line (checksum already off) that starts `{"k":"<tag>",` or is
/// `{"k":"<tag>"}`, read as `{"<tag>":{…}}`; `None` for any other line, or one that does not
/// parse so (the caller then reads it the general way, which names what is wrong).
pub(crate) fn parse_tag_first(line: &[u8]) -> Option<super::Redo> {
    let rest = line.strip_prefix(br#"{"k":""#)?;
    let end = rest.iter().position(|&b| b == b'"')?;
    let (tag, after) = rest.split_at(end);
    if tag.is_empty() || !tag.iter().all(u8::is_ascii_alphanumeric) {
        return None;
    }
    // Past the tag's closing quote: the other fields (ending with the object's brace), or
    // the brace alone.
    let fields = match after.get(1)? {
        b',' => &after[2..],
        b'}' => &after[1..],
        _ => return None,
    };
    let mut text = Vec::with_capacity(tag.len() + fields.len() + 8);
    text.extend_from_slice(b"{\"");
    text.extend_from_slice(tag);
    text.extend_from_slice(b"\":{");
    text.extend_from_slice(fields);
    text.push(b'}');
    serde_json::from_slice::<super::TagFirst>(&text)
        .ok()
        .map(super::Redo::from)
}
