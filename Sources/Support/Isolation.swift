/// Where third-party decoders of untrusted files run (librsvg for SVG pictures, poppler for
/// compared PDFs). In this process by default; a caller that serves others (the HTTP service)
/// gives a runner that sends each call to a worker process with CPU-time and address-space
/// limits, killed at the request's deadline, so a decoder's crash, hang or bomb ends one
/// request, not the service. The call is the same either way: a task name and named byte
/// fields in, bytes out, done by the same function (`IsolatedTasks` in the Worker target).
package struct Isolation: Sendable {
    /// One call: the task's name and its inputs.
    package struct Call: Sendable {
        package var task: String
        package var fields: Fields
        /// The most memory it may take, in bytes (the worker's address-space limit is this
        /// plus the process's own baseline); the caller reserves it from its budget first.
        package var memoryBytes: Int
        /// The answer's size when the caller knows it (a raster's pixels), else 0.
        package var answerBytes: Int
        package init(task: String, fields: Fields, memoryBytes: Int, answerBytes: Int = 0) {
            (self.task, self.fields, self.memoryBytes, self.answerBytes) = (task, fields, memoryBytes, answerBytes)
        }
    }

    /// Sends a call elsewhere and returns its output; throws `IsolationError` when it fails
    /// there, `Cancellation.Cancelled` when `cancellation` stopped it.
    package typealias Runner = @Sendable (_ call: Call, _ cancellation: Cancellation?) throws -> [UInt8]

    /// Nil: calls run in this process.
    package var runner: Runner?

    package init(runner: Runner? = nil) { self.runner = runner }

    /// Calls run in this process (the CLI on the user's own files).
    package static let inProcess = Isolation()

    /// Whether calls leave this process.
    package var isolates: Bool { runner != nil }

    /// Runs `call`: through the runner when there is one, else `here` with the same fields.
    package func perform(_ call: Call, cancellation: Cancellation?, here: (Fields) throws -> [UInt8]) throws -> [UInt8] {
        guard let runner else { return try here(call.fields) }
        return try runner(call, cancellation)
    }
}

/// A call that failed in its worker, in one line.
package struct IsolationError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable, Equatable {
        /// The task refused its input (the decoder's own error, or a check's).
        case refused
        /// The worker ended by a signal (a crash) or was stopped at a limit.
        case crashed
        /// The worker could not be started.
        case unavailable
    }
    package var kind: Kind
    package var description: String
    package init(_ kind: Kind, _ description: String) { (self.kind, self.description) = (kind, description) }
}

/// Named byte strings, framed so that any bytes (an SVG, two PDFs, numbers as text) cross a
/// pipe intact: for each field a 2-byte name length, the UTF-8 name, an 8-byte length, the
/// bytes (big-endian lengths).
package struct Fields: Sendable, Equatable {
    package private(set) var entries: [(name: String, bytes: [UInt8])] = []

    package init() {}

    package init(_ pairs: [(String, [UInt8])]) { for (name, bytes) in pairs { self[name] = bytes } }

    package subscript(name: String) -> [UInt8]? {
        get { entries.first { $0.name == name }?.bytes }
        set {
            entries.removeAll { $0.name == name }
            if let newValue { entries.append((name, newValue)) }
        }
    }

    /// A field as text (numbers and names are sent as their decimal text).
    package func text(_ name: String) -> String? { self[name].map { String(decoding: $0, as: UTF8.self) } }

    /// A field as a number; an error names the field when it is missing or not a number.
    package func number(_ name: String) throws(IsolationError) -> Double {
        guard let text = text(name), let value = Double(text) else { throw IsolationError(.refused, "the call has no number '\(name)'") }
        return value
    }

    package mutating func set(_ name: String, _ text: String) { self[name] = Array(text.utf8) }

    package var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.reduce(0) { $0 + 10 + $1.name.utf8.count + $1.bytes.count })
        for (name, bytes) in entries {
            let n = Array(name.utf8)
            out += [UInt8(n.count >> 8 & 255), UInt8(n.count & 255)] + n
            out += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bytes.count) >> (56 - 8 * $0)) }
            out += bytes
        }
        return out
    }

    package static func == (a: Fields, b: Fields) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.name == $1.name && $0.bytes == $1.bytes }
    }

    /// The fields framed in `bytes`; nil when the framing is broken.
    package init?(decoding bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            guard bytes.count - i >= 2 else { return nil }
            let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            i += 2
            guard bytes.count - i >= n + 8 else { return nil }
            let name = String(decoding: bytes[i..<i + n], as: UTF8.self)
            i += n
            let length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[i + $1]) }
            i += 8
            guard length <= UInt64(bytes.count - i) else { return nil }
            self[name] = Array(bytes[i..<i + Int(length)])
            i += Int(length)
        }
    }
}
