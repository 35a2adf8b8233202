public import Foundation

// Constants of Apple's private SecItemPriv.h that Apple's own regression tests use, with the
// values SecItemConstants.c gives them. Apps outside Apple cannot rely on them on a device.

/// `binn`: an internet password's extra notes, sealed with its data and returned only with it.
nonisolated(unsafe) public let kSecDataInetExtraNotes: CFString = "binn"
/// `bini`: an internet password's extra history.
nonisolated(unsafe) public let kSecDataInetExtraHistory: CFString = "bini"
/// `bin0`: the first of four client-defined extra data fields.
nonisolated(unsafe) public let kSecDataInetExtraClientDefined0: CFString = "bin0"
/// `bin1`.
nonisolated(unsafe) public let kSecDataInetExtraClientDefined1: CFString = "bin1"
/// `bin2`.
nonisolated(unsafe) public let kSecDataInetExtraClientDefined2: CFString = "bin2"
/// `bin3`.
nonisolated(unsafe) public let kSecDataInetExtraClientDefined3: CFString = "bin3"
/// `clip`: marks App Clip items; never accepted from a caller (errSecParam).
nonisolated(unsafe) public let kSecAttrAppClipItem: CFString = "clip"
