//! The seal on hookc's records: an HMAC-SHA256 (RFC 2104) under a key only
//! hookc reads.
//!
//! The key is 32 random bytes, made once in the state folder as `key`
//! (`0600`, written whole to a fresh file and hard-linked into place, so a
//! reader never sees part of it and two processes making it at once agree
//! on one). A pending refusal, an approval and the log's seal each carry a
//! `mac` over all their other fields, so a record written by anything but
//! hookc does not verify and is not believed: the agent would need the key,
//! and the built-in guard refuses its calls that reach the state folder.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::store::Dir;

/// The key's file in the state folder.
pub const KEY_FILE: &str = "key";

/// hookc's key.
#[derive(Clone)]
pub struct Key([u8; 32]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(…)")
    }
}

impl Key {
    #[cfg(test)]
    pub fn from_bytes(bytes: [u8; 32]) -> Key {
        Key(bytes)
    }
}

/// HMAC-SHA256 of `message` under `key`, as RFC 2104 defines it.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    inner.update(message);
    let mut outer = Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Equal bytes, compared in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// 32 bytes from the system's random source.
fn random() -> std::io::Result<[u8; 32]> {
    let mut bytes = [0u8; 32];
    #[cfg(unix)]
    {
        use std::io::Read;
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    }
    #[cfg(not(unix))]
    {
        // The standard library seeds each `RandomState` from the system's
        // random source (BCryptGenRandom on Windows).
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    Ok(bytes)
}

/// The key in `state`; made when `create` and there is none (or it is
/// damaged). `None` when there is none and `create` is false.
pub fn key(state: &Dir, create: bool) -> std::io::Result<Option<Key>> {
    for _ in 0..3 {
        match state.read_small(KEY_FILE, 256) {
            Ok(Some(bytes)) => {
                let parsed = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|t| unhex(t.trim()))
                    .and_then(|b| <[u8; 32]>::try_from(b).ok());
                match parsed {
                    Some(k) => return Ok(Some(Key(k))),
                    // A damaged key verifies nothing; a fresh one replaces it.
                    None if create => {
                        let _ = state.remove(KEY_FILE);
                    }
                    None => return Ok(None),
                }
            }
            Ok(None) if !create => return Ok(None),
            Ok(None) => {}
            Err(e) if super::store::is_link_error(&e) && create => {
                let _ = state.remove(KEY_FILE);
            }
            Err(e) => return Err(e),
        }
        let fresh = random()?;
        if state.create_once(KEY_FILE, hex(&fresh).as_bytes())? {
            return Ok(Some(Key(fresh)));
        }
        // Another process made it first: read theirs.
    }
    Err(std::io::Error::other("the key could not be made"))
}

/// JSON with object keys sorted and no spaces: the same value, the same text.
pub fn canonical(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&map[*k])))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

fn mac(key: &Key, kind: &str, fields: &Value) -> String {
    let text = format!("hookc-seal\0{kind}\0{}", canonical(fields));
    hex(&hmac_sha256(&key.0, text.as_bytes()))
}

/// `value` (an object) with a `mac` over all its fields and its `kind`.
pub fn seal(key: &Key, kind: &str, mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        map.remove("mac");
        let m = mac(key, kind, &Value::Object(map.clone()));
        map.insert("mac".to_owned(), Value::String(m));
    }
    value
}

/// The fields of a sealed object, if its `mac` is hookc's for `kind`.
pub fn unseal(key: &Key, kind: &str, mut value: Value) -> Option<Value> {
    let Value::Object(map) = &mut value else {
        return None;
    };
    let given = map.remove("mac")?;
    let given = unhex(given.as_str()?)?;
    let expected = unhex(&mac(key, kind, &Value::Object(map.clone())))?;
    same(&given, &expected).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// RFC 4231's test cases 1, 2, 4 and 6 (a key longer than a block).
    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        let cases: [(Vec<u8>, &[u8], &str); 4] = [
            (
                vec![0x0b; 20],
                b"Hi There",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            ),
            (
                b"Jefe".to_vec(),
                b"what do ya want for nothing?",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            ),
            (
                (1..=25).collect(),
                &[0xcd; 50],
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
            ),
            (
                vec![0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            ),
        ];
        for (key, message, expected) in cases {
            assert_eq!(hex(&hmac_sha256(&key, message)), expected);
        }
    }

    #[test]
    fn a_seal_covers_every_field_and_the_kind() {
        let key = Key([7; 32]);
        let sealed = seal(&key, "approval", json!({"code": "1234abcd", "expires": 10}));
        assert!(unseal(&key, "approval", sealed.clone()).is_some());
        // Another kind, another key, a changed field, a missing mac: refused.
        assert!(unseal(&key, "pending", sealed.clone()).is_none());
        assert!(unseal(&Key([8; 32]), "approval", sealed.clone()).is_none());
        let mut changed = sealed.clone();
        changed["expires"] = json!(11);
        assert!(unseal(&key, "approval", changed).is_none());
        let mut added = sealed.clone();
        added["session"] = json!("s");
        assert!(unseal(&key, "approval", added).is_none());
        let mut bare = sealed;
        bare.as_object_mut().unwrap().remove("mac");
        assert!(unseal(&key, "approval", bare).is_none());
        // Key order does not matter: the text is canonical.
        let a = seal(&key, "k", json!({"a": 1, "b": 2}));
        let b: Value = serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap();
        assert_eq!(a["mac"], seal(&key, "k", b)["mac"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_key_is_made_once_private_and_kept() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::state_at(tmp.path()).unwrap();
        assert!(key(&dir, false).unwrap().is_none());
        let first = key(&dir, true).unwrap().unwrap();
        let again = key(&dir, true).unwrap().unwrap();
        assert_eq!(first.0, again.0);
        let meta = std::fs::metadata(tmp.path().join(KEY_FILE)).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        // A damaged key is replaced by a fresh one.
        std::fs::write(tmp.path().join(KEY_FILE), "short").unwrap();
        assert!(key(&dir, false).unwrap().is_none());
        let fresh = key(&dir, true).unwrap().unwrap();
        assert_ne!(fresh.0, first.0);
    }
}
