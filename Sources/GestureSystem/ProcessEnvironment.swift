import Glibc

/// The process's environment as a dictionary, read once per call from `environ`.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var values: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let eq = text.firstIndex(of: "=") { values[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            entry += 1
        }
        return values
    }
}
