// The `kSec…` constants with the string values Apple's SecItemConstants.c gives them; the daemon
// dispatches on these values, so they must be exact (note the trailing spaces of some protocols).

/// `class`.
public let kSecClass: CFString = "class"
/// `genp`.
public let kSecClassGenericPassword: CFString = "genp"
/// `inet`.
public let kSecClassInternetPassword: CFString = "inet"
/// `cert`.
public let kSecClassCertificate: CFString = "cert"
/// `keys`.
public let kSecClassKey: CFString = "keys"
/// `idnt`.
public let kSecClassIdentity: CFString = "idnt"
/// `pdmn`.
public let kSecAttrAccessible: CFString = "pdmn"
/// `ak`.
public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// `ck`.
public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// `dk`.
public let kSecAttrAccessibleAlways: CFString = "dk"
/// `aku`.
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `cku`.
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `dku`.
public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
/// `akpu`.
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
/// `agrp`.
public let kSecAttrAccessGroup: CFString = "agrp"
/// `com.apple.token`.
public let kSecAttrAccessGroupToken: CFString = "com.apple.token"
/// `accc`.
public let kSecAttrAccessControl: CFString = "accc"
/// `sync`.
public let kSecAttrSynchronizable: CFString = "sync"
/// `syna`.
public let kSecAttrSynchronizableAny: CFString = "syna"
/// `acct`.
public let kSecAttrAccount: CFString = "acct"
/// `svce`.
public let kSecAttrService: CFString = "svce"
/// `gena`.
public let kSecAttrGeneric: CFString = "gena"
/// `labl`.
public let kSecAttrLabel: CFString = "labl"
/// `desc`.
public let kSecAttrDescription: CFString = "desc"
/// `icmt`.
public let kSecAttrComment: CFString = "icmt"
/// `crtr`.
public let kSecAttrCreator: CFString = "crtr"
/// `type`.
public let kSecAttrType: CFString = "type"
/// `invi`.
public let kSecAttrIsInvisible: CFString = "invi"
/// `nega`.
public let kSecAttrIsNegative: CFString = "nega"
/// `cdat`.
public let kSecAttrCreationDate: CFString = "cdat"
/// `mdat`.
public let kSecAttrModificationDate: CFString = "mdat"
/// `sdmn`.
public let kSecAttrSecurityDomain: CFString = "sdmn"
/// `srvr`.
public let kSecAttrServer: CFString = "srvr"
/// `ptcl`.
public let kSecAttrProtocol: CFString = "ptcl"
/// `atyp`.
public let kSecAttrAuthenticationType: CFString = "atyp"
/// `port`.
public let kSecAttrPort: CFString = "port"
/// `path`.
public let kSecAttrPath: CFString = "path"
/// `ctyp`.
public let kSecAttrCertificateType: CFString = "ctyp"
/// `cenc`.
public let kSecAttrCertificateEncoding: CFString = "cenc"
/// `subj`.
public let kSecAttrSubject: CFString = "subj"
/// `issr`.
public let kSecAttrIssuer: CFString = "issr"
/// `slnr`.
public let kSecAttrSerialNumber: CFString = "slnr"
/// `skid`.
public let kSecAttrSubjectKeyID: CFString = "skid"
/// `pkhh`.
public let kSecAttrPublicKeyHash: CFString = "pkhh"
/// `kcls`.
public let kSecAttrKeyClass: CFString = "kcls"
/// `0`.
public let kSecAttrKeyClassPublic: CFString = "0"
/// `1`.
public let kSecAttrKeyClassPrivate: CFString = "1"
/// `2`.
public let kSecAttrKeyClassSymmetric: CFString = "2"
/// `klbl`.
public let kSecAttrApplicationLabel: CFString = "klbl"
/// `perm`.
public let kSecAttrIsPermanent: CFString = "perm"
/// `atag`.
public let kSecAttrApplicationTag: CFString = "atag"
/// `type`.
public let kSecAttrKeyType: CFString = "type"
/// `bsiz`.
public let kSecAttrKeySizeInBits: CFString = "bsiz"
/// `esiz`.
public let kSecAttrEffectiveKeySize: CFString = "esiz"
/// `encr`.
public let kSecAttrCanEncrypt: CFString = "encr"
/// `decr`.
public let kSecAttrCanDecrypt: CFString = "decr"
/// `drve`.
public let kSecAttrCanDerive: CFString = "drve"
/// `sign`.
public let kSecAttrCanSign: CFString = "sign"
/// `vrfy`.
public let kSecAttrCanVerify: CFString = "vrfy"
/// `wrap`.
public let kSecAttrCanWrap: CFString = "wrap"
/// `unwp`.
public let kSecAttrCanUnwrap: CFString = "unwp"
/// `42`.
public let kSecAttrKeyTypeRSA: CFString = "42"
/// `73`.
public let kSecAttrKeyTypeEC: CFString = "73"
/// `73`.
public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"
/// `m_Limit`.
public let kSecMatchLimit: CFString = "m_Limit"
/// `m_LimitOne`.
public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// `m_LimitAll`.
public let kSecMatchLimitAll: CFString = "m_LimitAll"
/// `m_CaseInsensitive`.
public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"
/// `m_Issuers`.
public let kSecMatchIssuers: CFString = "m_Issuers"
/// `m_Policy`.
public let kSecMatchPolicy: CFString = "m_Policy"
/// `m_ItemList`.
public let kSecMatchItemList: CFString = "m_ItemList"
/// `m_SearchList`.
public let kSecMatchSearchList: CFString = "m_SearchList"
/// `m_SubjectContains`.
public let kSecMatchSubjectContains: CFString = "m_SubjectContains"
/// `m_ValidOnDate`.
public let kSecMatchValidOnDate: CFString = "m_ValidOnDate"
/// `m_TrustedOnly`.
public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly"
/// `m_EmailAddressIfPresent`.
public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent"
/// `m_HostOrSubdomainOfHost`.
public let kSecMatchHostOrSubdomainOfHost: CFString = "m_HostOrSubdomainOfHost"
/// `r_Data`.
public let kSecReturnData: CFString = "r_Data"
/// `r_Attributes`.
public let kSecReturnAttributes: CFString = "r_Attributes"
/// `r_Ref`.
public let kSecReturnRef: CFString = "r_Ref"
/// `r_PersistentRef`.
public let kSecReturnPersistentRef: CFString = "r_PersistentRef"
/// `v_Data`.
public let kSecValueData: CFString = "v_Data"
/// `v_Ref`.
public let kSecValueRef: CFString = "v_Ref"
/// `v_PersistentRef`.
public let kSecValuePersistentRef: CFString = "v_PersistentRef"
/// `nleg`.
public let kSecUseDataProtectionKeychain: CFString = "nleg"
/// `u_OpPrompt`.
public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
/// `u_NoAuthUI`.
public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI"
/// `u_AuthUI`.
public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
/// `u_AuthUIA`.
public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
/// `u_AuthUIF`.
public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
/// `u_AuthUIS`.
public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"
/// `u_AuthCtx`.
public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
/// `u_ItemList`.
public let kSecUseItemList: CFString = "u_ItemList"
/// `spwd`.
public let kSecSharedPassword: CFString = "spwd"
/// `ftp `.
public let kSecAttrProtocolFTP: CFString = "ftp "
/// `ftpa`.
public let kSecAttrProtocolFTPAccount: CFString = "ftpa"
/// `http`.
public let kSecAttrProtocolHTTP: CFString = "http"
/// `irc `.
public let kSecAttrProtocolIRC: CFString = "irc "
/// `nntp`.
public let kSecAttrProtocolNNTP: CFString = "nntp"
/// `pop3`.
public let kSecAttrProtocolPOP3: CFString = "pop3"
/// `smtp`.
public let kSecAttrProtocolSMTP: CFString = "smtp"
/// `sox `.
public let kSecAttrProtocolSOCKS: CFString = "sox "
/// `imap`.
public let kSecAttrProtocolIMAP: CFString = "imap"
/// `ldap`.
public let kSecAttrProtocolLDAP: CFString = "ldap"
/// `atlk`.
public let kSecAttrProtocolAppleTalk: CFString = "atlk"
/// `afp `.
public let kSecAttrProtocolAFP: CFString = "afp "
/// `teln`.
public let kSecAttrProtocolTelnet: CFString = "teln"
/// `ssh `.
public let kSecAttrProtocolSSH: CFString = "ssh "
/// `ftps`.
public let kSecAttrProtocolFTPS: CFString = "ftps"
/// `htps`.
public let kSecAttrProtocolHTTPS: CFString = "htps"
/// `htpx`.
public let kSecAttrProtocolHTTPProxy: CFString = "htpx"
/// `htsx`.
public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
/// `ftpx`.
public let kSecAttrProtocolFTPProxy: CFString = "ftpx"
/// `smb `.
public let kSecAttrProtocolSMB: CFString = "smb "
/// `rtsp`.
public let kSecAttrProtocolRTSP: CFString = "rtsp"
/// `rtsx`.
public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
/// `daap`.
public let kSecAttrProtocolDAAP: CFString = "daap"
/// `eppc`.
public let kSecAttrProtocolEPPC: CFString = "eppc"
/// `ipp `.
public let kSecAttrProtocolIPP: CFString = "ipp "
/// `ntps`.
public let kSecAttrProtocolNNTPS: CFString = "ntps"
/// `ldps`.
public let kSecAttrProtocolLDAPS: CFString = "ldps"
/// `tels`.
public let kSecAttrProtocolTelnetS: CFString = "tels"
/// `imps`.
public let kSecAttrProtocolIMAPS: CFString = "imps"
/// `ircs`.
public let kSecAttrProtocolIRCS: CFString = "ircs"
/// `pops`.
public let kSecAttrProtocolPOP3S: CFString = "pops"
/// `ntlm`.
public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
/// `msna`.
public let kSecAttrAuthenticationTypeMSN: CFString = "msna"
/// `dpaa`.
public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
/// `rpaa`.
public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
/// `http`.
public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
/// `httd`.
public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
/// `form`.
public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
/// `dflt`.
public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"
