// The OSStatus values of the Security framework (SecBase.h) and the messages
// SecCopyErrorMessageString gives for them.

/// No error.
public let errSecSuccess: OSStatus = 0
/// Function or operation not implemented.
public let errSecUnimplemented: OSStatus = -4
/// The disk is full.
public let errSecDiskFull: OSStatus = -34
/// I/O error.
public let errSecIO: OSStatus = -36
/// File already open with write permission.
public let errSecOpWr: OSStatus = -49
/// One or more parameters passed to a function were not valid.
public let errSecParam: OSStatus = -50
/// Write permissions error.
public let errSecWrPerm: OSStatus = -61
/// Failed to allocate memory.
public let errSecAllocate: OSStatus = -108
/// User canceled the operation.
public let errSecUserCanceled: OSStatus = -128
/// Bad parameter or invalid state for operation.
public let errSecBadReq: OSStatus = -909
/// An internal component failed.
public let errSecInternalComponent: OSStatus = -2070
/// A Core Foundation error occurred.
public let errSecCoreFoundationUnknown: OSStatus = -4960
/// A required entitlement isn't present.
public let errSecMissingEntitlement: OSStatus = -34018
/// Operation not allowed in this context.
public let errSecRestrictedAPI: OSStatus = -34020
/// No keychain is available. You may need to restart your computer.
public let errSecNotAvailable: OSStatus = -25291
/// This keychain cannot be modified.
public let errSecReadOnly: OSStatus = -25292
/// The user name or passphrase you entered is not correct.
public let errSecAuthFailed: OSStatus = -25293
/// The specified keychain could not be found.
public let errSecNoSuchKeychain: OSStatus = -25294
/// The specified keychain is not a valid keychain file.
public let errSecInvalidKeychain: OSStatus = -25295
/// A keychain with the same name already exists.
public let errSecDuplicateKeychain: OSStatus = -25296
/// The specified callback function is already installed.
public let errSecDuplicateCallback: OSStatus = -25297
/// The specified callback function is not valid.
public let errSecInvalidCallback: OSStatus = -25298
/// The specified item already exists in the keychain.
public let errSecDuplicateItem: OSStatus = -25299
/// The specified item could not be found in the keychain.
public let errSecItemNotFound: OSStatus = -25300
/// There is not enough memory available to use the specified item.
public let errSecBufferTooSmall: OSStatus = -25301
/// This item contains information which is too large or in a format that cannot be displayed.
public let errSecDataTooLarge: OSStatus = -25302
/// The specified attribute does not exist.
public let errSecNoSuchAttr: OSStatus = -25303
/// The specified item is no longer valid. It may have been deleted from the keychain.
public let errSecInvalidItemRef: OSStatus = -25304
/// Unable to search the current keychain.
public let errSecInvalidSearchRef: OSStatus = -25305
/// The specified item does not appear to be a valid keychain item.
public let errSecNoSuchClass: OSStatus = -25306
/// A default keychain could not be found.
public let errSecNoDefaultKeychain: OSStatus = -25307
/// User interaction is not allowed.
public let errSecInteractionNotAllowed: OSStatus = -25308
/// The specified attribute could not be modified.
public let errSecReadOnlyAttr: OSStatus = -25309
/// This keychain was created by a different version of the system software and cannot be opened.
public let errSecWrongSecVersion: OSStatus = -25310
/// This item specifies a key size which is too large or too small.
public let errSecKeySizeNotAllowed: OSStatus = -25311
/// A required component (data storage module) could not be loaded. You may need to restart your computer.
public let errSecNoStorageModule: OSStatus = -25312
/// A required component (certificate module) could not be loaded. You may need to restart your computer.
public let errSecNoCertificateModule: OSStatus = -25313
/// A required component (policy module) could not be loaded. You may need to restart your computer.
public let errSecNoPolicyModule: OSStatus = -25314
/// User interaction is required, but is currently not allowed.
public let errSecInteractionRequired: OSStatus = -25315
/// The contents of this item cannot be retrieved.
public let errSecDataNotAvailable: OSStatus = -25316
/// The contents of this item cannot be modified.
public let errSecDataNotModifiable: OSStatus = -25317
/// One or more certificates required to validate this certificate cannot be found.
public let errSecCreateChainFailed: OSStatus = -25318
/// The specified preferences domain is not valid.
public let errSecInvalidPrefsDomain: OSStatus = -25319
/// In dark wake, no UI possible
public let errSecInDarkWake: OSStatus = -25320
/// The specified access control list is not in standard (simple) form.
public let errSecACLNotSimple: OSStatus = -25240
/// The specified policy cannot be found.
public let errSecPolicyNotFound: OSStatus = -25241
/// The specified trust setting is invalid.
public let errSecInvalidTrustSetting: OSStatus = -25242
/// The specified item has no access control.
public let errSecNoAccessForItem: OSStatus = -25243
/// Invalid attempt to change the owner of this item.
public let errSecInvalidOwnerEdit: OSStatus = -25244
/// No trust results are available.
public let errSecTrustNotAvailable: OSStatus = -25245
/// Import/Export format unsupported.
public let errSecUnsupportedFormat: OSStatus = -25256
/// Unknown format in import.
public let errSecUnknownFormat: OSStatus = -25257
/// Key material must be wrapped for export.
public let errSecKeyIsSensitive: OSStatus = -25258
/// An attempt was made to import multiple private keys.
public let errSecMultiplePrivKeys: OSStatus = -25259
/// Passphrase is required for import/export.
public let errSecPassphraseRequired: OSStatus = -25260
/// The password reference was invalid.
public let errSecInvalidPasswordRef: OSStatus = -25261
/// The Trust Settings Record was corrupted.
public let errSecInvalidTrustSettings: OSStatus = -25262
/// No Trust Settings were found.
public let errSecNoTrustSettings: OSStatus = -25263
/// MAC verification failed during PKCS12 import (wrong password?)
public let errSecPkcs12VerifyFailure: OSStatus = -25264
/// A certificate was not signed by its proposed parent.
public let errSecNotSigner: OSStatus = -26267
/// Unable to decode the provided data.
public let errSecDecode: OSStatus = -26275
/// An internal error occurred in the Security framework.
public let errSecInternal: OSStatus = -26276
/// The required service is not available.
public let errSecServiceNotAvailable: OSStatus = -67585
/// The encoding is not valid.
public let errSecInvalidEncoding: OSStatus = -67853

/// `noErr`, as Carbon spelled success.
public let noErr: OSStatus = 0

/// Each status with its name and message, for `SecCopyErrorMessageString` and for tools.
public let secErrorTable: [(name: String, status: OSStatus, message: String)] = [
    ("errSecSuccess", 0, "No error."),
    ("errSecUnimplemented", -4, "Function or operation not implemented."),
    ("errSecDiskFull", -34, "The disk is full."),
    ("errSecIO", -36, "I/O error."),
    ("errSecOpWr", -49, "File already open with write permission."),
    ("errSecParam", -50, "One or more parameters passed to a function were not valid."),
    ("errSecWrPerm", -61, "Write permissions error."),
    ("errSecAllocate", -108, "Failed to allocate memory."),
    ("errSecUserCanceled", -128, "User canceled the operation."),
    ("errSecBadReq", -909, "Bad parameter or invalid state for operation."),
    ("errSecInternalComponent", -2070, "An internal component failed."),
    ("errSecCoreFoundationUnknown", -4960, "A Core Foundation error occurred."),
    ("errSecMissingEntitlement", -34018, "A required entitlement isn't present."),
    ("errSecRestrictedAPI", -34020, "Operation not allowed in this context."),
    ("errSecNotAvailable", -25291, "No keychain is available. You may need to restart your computer."),
    ("errSecReadOnly", -25292, "This keychain cannot be modified."),
    ("errSecAuthFailed", -25293, "The user name or passphrase you entered is not correct."),
    ("errSecNoSuchKeychain", -25294, "The specified keychain could not be found."),
    ("errSecInvalidKeychain", -25295, "The specified keychain is not a valid keychain file."),
    ("errSecDuplicateKeychain", -25296, "A keychain with the same name already exists."),
    ("errSecDuplicateCallback", -25297, "The specified callback function is already installed."),
    ("errSecInvalidCallback", -25298, "The specified callback function is not valid."),
    ("errSecDuplicateItem", -25299, "The specified item already exists in the keychain."),
    ("errSecItemNotFound", -25300, "The specified item could not be found in the keychain."),
    ("errSecBufferTooSmall", -25301, "There is not enough memory available to use the specified item."),
    ("errSecDataTooLarge", -25302, "This item contains information which is too large or in a format that cannot be displayed."),
    ("errSecNoSuchAttr", -25303, "The specified attribute does not exist."),
    ("errSecInvalidItemRef", -25304, "The specified item is no longer valid. It may have been deleted from the keychain."),
    ("errSecInvalidSearchRef", -25305, "Unable to search the current keychain."),
    ("errSecNoSuchClass", -25306, "The specified item does not appear to be a valid keychain item."),
    ("errSecNoDefaultKeychain", -25307, "A default keychain could not be found."),
    ("errSecInteractionNotAllowed", -25308, "User interaction is not allowed."),
    ("errSecReadOnlyAttr", -25309, "The specified attribute could not be modified."),
    ("errSecWrongSecVersion", -25310, "This keychain was created by a different version of the system software and cannot be opened."),
    ("errSecKeySizeNotAllowed", -25311, "This item specifies a key size which is too large or too small."),
    ("errSecNoStorageModule", -25312, "A required component (data storage module) could not be loaded. You may need to restart your computer."),
    ("errSecNoCertificateModule", -25313, "A required component (certificate module) could not be loaded. You may need to restart your computer."),
    ("errSecNoPolicyModule", -25314, "A required component (policy module) could not be loaded. You may need to restart your computer."),
    ("errSecInteractionRequired", -25315, "User interaction is required, but is currently not allowed."),
    ("errSecDataNotAvailable", -25316, "The contents of this item cannot be retrieved."),
    ("errSecDataNotModifiable", -25317, "The contents of this item cannot be modified."),
    ("errSecCreateChainFailed", -25318, "One or more certificates required to validate this certificate cannot be found."),
    ("errSecInvalidPrefsDomain", -25319, "The specified preferences domain is not valid."),
    ("errSecInDarkWake", -25320, "In dark wake, no UI possible"),
    ("errSecACLNotSimple", -25240, "The specified access control list is not in standard (simple) form."),
    ("errSecPolicyNotFound", -25241, "The specified policy cannot be found."),
    ("errSecInvalidTrustSetting", -25242, "The specified trust setting is invalid."),
    ("errSecNoAccessForItem", -25243, "The specified item has no access control."),
    ("errSecInvalidOwnerEdit", -25244, "Invalid attempt to change the owner of this item."),
    ("errSecTrustNotAvailable", -25245, "No trust results are available."),
    ("errSecUnsupportedFormat", -25256, "Import/Export format unsupported."),
    ("errSecUnknownFormat", -25257, "Unknown format in import."),
    ("errSecKeyIsSensitive", -25258, "Key material must be wrapped for export."),
    ("errSecMultiplePrivKeys", -25259, "An attempt was made to import multiple private keys."),
    ("errSecPassphraseRequired", -25260, "Passphrase is required for import/export."),
    ("errSecInvalidPasswordRef", -25261, "The password reference was invalid."),
    ("errSecInvalidTrustSettings", -25262, "The Trust Settings Record was corrupted."),
    ("errSecNoTrustSettings", -25263, "No Trust Settings were found."),
    ("errSecPkcs12VerifyFailure", -25264, "MAC verification failed during PKCS12 import (wrong password?)"),
    ("errSecNotSigner", -26267, "A certificate was not signed by its proposed parent."),
    ("errSecDecode", -26275, "Unable to decode the provided data."),
    ("errSecInternal", -26276, "An internal error occurred in the Security framework."),
    ("errSecServiceNotAvailable", -67585, "The required service is not available."),
    ("errSecInvalidEncoding", -67853, "The encoding is not valid."),
]
