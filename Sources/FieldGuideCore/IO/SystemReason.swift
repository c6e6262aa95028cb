import Foundation

/// The operating system's words for why a file operation failed ("No such file or
/// directory"), never Foundation's error dump (`NSCocoaErrorDomain Code=260 …`).
///
/// ```swift
/// do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
/// catch { print("\(path): cannot create directory: \(SystemReason.of(error))") }
/// ```
public enum SystemReason {
    /// The POSIX reason behind a Foundation or POSIX error, else a plain fallback.
    public static func of(_ error: any Error) -> String {
        var current: NSError? = error as NSError
        while let nsError = current {
            if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
            if nsError.domain == NSCocoaErrorDomain, let reason = cocoaReason(nsError.code) {
                if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                    return String(cString: strerror(Int32(underlying.code)))
                }
                return reason
            }
            current = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return "failed"
    }

    /// The current `errno` in words.
    public static var errnoText: String { String(cString: strerror(errno)) }

    private static func cocoaReason(_ code: Int) -> String? {
        switch code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "No such file or directory"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "Permission denied"
        case NSFileWriteOutOfSpaceError: return "No space left on device"
        case NSFileWriteVolumeReadOnlyError: return "Read-only file system"
        case NSFileWriteFileExistsError: return "File exists"
        case NSFileReadCorruptFileError: return "not readable in the expected encoding"
        case NSFileReadTooLargeError: return "File too large"
        default: return nil
        }
    }
}
