import Testing
@testable import GestureInput

@Suite("A mouse's resolution: udev's MOUSE_DPI, the config key, 1000 dpi")
struct MouseResolutionTests {
    @Test("the hwdb's forms: one value, with a rate, a list with the default starred, and a list without a star (its last, as libinput)",
          arguments: [
              ("800", 800), ("800@125", 800), ("400@125 *800@125 1600@125", 800), ("*500 1000 1500", 500),
              ("1000@125 *1600@1000", 1600), ("400 800 1600", 1600), ("  *1200@500  ", 1200), ("400@500\t*800@500", 800),
          ])
    func forms(value: String, dpi: Int) {
        #expect(MouseResolution.parse(value) == .success(dpi))
    }

    @Test("hostile values are refused, each with its reason",
          arguments: [
              ("", MouseResolution.Problem.empty), ("   ", .empty), ("fast", .notAResolution("fast")),
              ("800@", .notAResolution("800@")), ("@125", .notAResolution("@125")), ("-800", .notAResolution("-800")),
              ("+800", .notAResolution("+800")), ("800@125@1", .notAResolution("800@125@1")), ("**800", .notAResolution("**800")),
              ("*", .notAResolution("*")), ("８００", .notAResolution("８００")), ("800 dpi", .notAResolution("dpi")),
              ("0", .outOfRange("0")), ("800@0", .outOfRange("800@0")), ("100001", .outOfRange("100001")),
              ("99999999999999999999", .outOfRange("99999999999999999999")), ("800@99999999999999999999", .outOfRange("800@99999999999999999999")),
          ])
    func hostile(value: String, problem: MouseResolution.Problem) {
        #expect(MouseResolution.parse(value) == .failure(problem))
    }

    @Test("the config key wins, then the hwdb, then 1000 dpi; counts a millimetre follow")
    func choice() {
        let entry = UdevDatabase.Entry(text: "E:ID_INPUT_MOUSE=1\nE:MOUSE_DPI=400@125 *800@125 1600@125\n")
        #expect(MouseResolution.choose(configured: 1600, udev: entry).resolution == MouseResolution(dotsPerInch: 1600, source: .config))
        #expect(MouseResolution.choose(configured: nil, udev: entry).resolution == MouseResolution(dotsPerInch: 800, source: .hwdb))
        #expect(MouseResolution.choose(configured: nil, udev: nil) == (MouseResolution.fallback, nil))
        #expect(MouseResolution.choose(configured: nil, udev: UdevDatabase.Entry(text: "E:ID_INPUT_MOUSE=1\n")).resolution == .fallback)
        #expect(abs(MouseResolution(dotsPerInch: 800, source: .hwdb).countsPerMillimetre - 31.496) < 0.001)
    }

    @Test("an unreadable MOUSE_DPI falls back to 1000 dpi and says where, what and how to fix it, its text shown without terminal controls")
    func message() {
        let bad = MouseResolution.choose(configured: nil, udev: UdevDatabase.Entry(text: "E:MOUSE_DPI=fast\n"))
        #expect(bad.resolution == .fallback)
        #expect(bad.problem == "udev's MOUSE_DPI \"fast\": \"fast\" is not a resolution (DPI or DPI@Hz, the default marked with *); using 1000 dpi (set config{ mouse_dpi = N } to give the mouse's own)")
        let escape = MouseResolution.choose(configured: nil, udev: UdevDatabase.Entry(text: "E:MOUSE_DPI=800\u{1B}]52;c;eA==\u{07}\n"))
        #expect(escape.problem?.contains("\u{1B}") == false)
        #expect(escape.problem?.hasPrefix("udev's MOUSE_DPI \"800\\u{1B}]52;c;eA==\\u{7}\": ") == true)
    }
}
