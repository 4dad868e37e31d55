//! The embedded emulated Oracle database.
pub mod sql_redo;
use crate::errors::Result;
#[derive(Debug, Clone, Default)]
pub struct Faults;
impl Faults {
    pub fn from_settings(_s: &crate::settings::Settings) -> Self {
        Faults
    }
}
pub struct EmulatorConnector;
impl EmulatorConnector {
    pub fn open(_p: &std::path::Path, _f: Faults) -> Result<Self> {
        Ok(EmulatorConnector)
    }
}
impl super::Connector for EmulatorConnector {
    fn connect(&self) -> Result<Box<dyn super::Session>> {
        Err(crate::errors::CdcError::Database("x".into()))
    }
    fn describe(&self) -> String {
        String::new()
    }
}
