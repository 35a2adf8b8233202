public import Foundation

// Core Foundation's names for Foundation's types, as Swift code on Apple platforms sees them, so
// that code written for iOS compiles here unchanged (spec security-module.md §2).

public typealias OSStatus = Int32
public typealias CFIndex = Int
public typealias CFOptionFlags = UInt
public typealias CFTypeRef = AnyObject
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary
public typealias CFMutableDictionary = NSMutableDictionary
public typealias CFArray = NSArray
public typealias CFData = NSData
public typealias CFNumber = NSNumber
public typealias CFBoolean = NSNumber
public typealias CFDate = NSDate
public typealias CFError = NSError

/// An allocator; only the default (`nil`) exists.
public final class CFAllocator: Sendable {}

/// The default allocator.
public let kCFAllocatorDefault: CFAllocator! = nil
/// `true` as a CFBoolean; implicitly unwrapped, as wrappers write `kCFBooleanTrue!`.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// `false` as a CFBoolean.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// The error's domain.
public func CFErrorGetDomain(_ error: CFError!) -> CFString! {
    error.domain as NSString
}

/// The error's code.
public func CFErrorGetCode(_ error: CFError!) -> CFIndex {
    error.code
}

/// The error's user info.
public func CFErrorCopyUserInfo(_ error: CFError!) -> CFDictionary! {
    error.userInfo as NSDictionary
}
