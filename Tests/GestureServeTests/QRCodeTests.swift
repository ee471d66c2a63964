import Testing
@testable import GestureServe

@Suite("The pairing URL's QR code")
struct QRCodeTests {
    static let outcome = QRCode.terminalLines(for: "http://192.168.1.23:8023/?k=5c0d3e9f1a2b4c6d8e0f1a2b3c4d5e6f")
    static var lines: [String]? { if case .lines(let lines) = outcome { return lines.map(\.text) }; return nil }
    static var available: Bool { lines != nil }

    @Test("black on white whatever the terminal, a quiet zone around, the finder patterns in the corners",
          .enabled(if: available, "libqrencode4 is not installed"))
    func drawn() throws {
        let lines = try #require(Self.lines)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1b}[30;107m") && $0.hasSuffix("\u{1b}[0m") })
        let rows = lines.map { String($0.dropFirst("\u{1b}[30;107m".count).dropLast("\u{1b}[0m".count)) }
        let width = try #require(rows.first?.count)
        #expect(rows.allSatisfy { $0.count == width })
        // Four light modules around: two lines of half blocks above and below, four columns either side.
        #expect(rows.prefix(2).allSatisfy { $0.allSatisfy { $0 == " " } })
        #expect(rows.suffix(2).allSatisfy { $0.allSatisfy { $0 == " " } })
        // A 7-module finder pattern's top edge at the top left and the top right.
        #expect(rows[2].hasPrefix("    █▀▀▀▀▀█ "))
        #expect(rows[2].hasSuffix(" █▀▀▀▀▀█    "))
        // 60 bytes: version 4 at level M (43 to 62 bytes), 33 modules, and the quiet zone.
        #expect(width == 33 + 8)
    }

    @Test("when libqrencode cannot be loaded, the reason says what to install")
    func unavailableReason() {
        let outcome = QRCode.terminalLines(for: "http://192.168.1.23:8023/?k=00", libraries: ["libqrencode-not-here.so.99"])
        #expect(outcome == .unavailable("libqrencode is not installed (install Debian's libqrencode4)"))
    }
}
