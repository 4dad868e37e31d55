//! The real Oracle adapter (being written).
use crate::errors::{CdcError, Code, Result};
pub struct OracleConnector;
impl OracleConnector {
    pub fn from_settings(_s: &crate::settings::Settings) -> Result<Self> {
        Err(CdcError::Connect {
            code: Code::Cdc2006,
            message: "adapter pending".into(),
        })
    }
}
impl super::Connector for OracleConnector {
    fn connect(&self) -> Result<Box<dyn super::Session>> {
        Err(CdcError::Database("pending".into()))
    }
    fn describe(&self) -> String {
        String::new()
    }
}
