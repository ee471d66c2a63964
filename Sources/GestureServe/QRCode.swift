#if canImport(Glibc)
import Glibc
#endif
import CQRCode
import GestureCore

/// The pairing URL as a QR code drawn with half blocks, two modules a line,
/// black on white whatever the terminal's colours (a phone's camera wants
/// dark modules on light), with the quiet zone of four modules QR asks for.
public enum QRCode {
    public enum Outcome: Equatable, Sendable {
        case lines([TerminalDrawing])
        /// Why there is none (libqrencode missing): the URL alone serves.
        case unavailable(String)
    }

    /// Debian's libqrencode4, by the names it is installed under.
    public static let libraries = ["libqrencode.so.4", "libqrencode.so"]

    /// `libraries`: where to look for libqrencode (tests name one that is not there).
    public static func terminalLines(for text: String, libraries: [String] = QRCode.libraries) -> Outcome {
        var width: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        var names: [UnsafePointer<CChar>?] = libraries.map { UnsafePointer(strdup($0)) }
        defer { for name in names { free(UnsafeMutablePointer(mutating: name)) } }
        names.append(nil)
        guard let modules = gm_qr_encode(text, &names, &width, &error, error.count) else {
            return .unavailable(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { gm_qr_free(modules) }
        let n = Int(width)
        let quiet = 4
        func dark(_ x: Int, _ y: Int) -> Bool {
            guard x >= 0, y >= 0, x < n, y < n else { return false }
            return modules[y * n + x] != 0
        }
        var lines: [TerminalDrawing] = []
        var y = -quiet
        while y < n + quiet {
            var line = "\u{1b}[30;107m"
            for x in -quiet..<(n + quiet) {
                switch (dark(x, y), dark(x, y + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(TerminalDrawing(line + "\u{1b}[0m"))
            y += 2
        }
        return .lines(lines)
    }
}
