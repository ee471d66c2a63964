import GestureCore
import GestureInput
import GestureServe
import GestureSystem

/// `serve`'s pages as touch devices: each connected page gets a device index
/// of its own (after the command line's inputs, reused once its page is gone)
/// and a decoder of the native format that its messages' records are given to.
final class PhoneSurfaces {
    let server: PhoneServer
    /// Device indexes from here up are the pages'.
    let firstDevice: Int
    private var pages: [Int: Page] = [:]

    struct Page {
        var device: Int
        var decoder: NDJSONDecoder
    }

    init(server: PhoneServer, firstDevice: Int) {
        self.server = server
        self.firstDevice = firstDevice
    }

    /// The connection whose page is device `device`, if one is.
    func connection(of device: Int) -> Int? {
        pages.first { $0.value.device == device }?.key
    }

    /// A device index for a new page: the lowest no page has now.
    func openPage(_ id: Int, decoder make: (Int) -> NDJSONDecoder) -> Int {
        let used = Set(pages.values.map(\.device))
        let device = (firstDevice...).first { !used.contains($0) } ?? firstDevice
        pages[id] = Page(device: device, decoder: make(device))
        return device
    }

    func take(_ id: Int, _ records: [NDJSONRecord], into output: DecoderOutput) -> [Diagnostic] {
        guard var page = pages[id] else { return [] }
        page.decoder.take(records, into: output)
        // A message is a whole frame: it is closed now, not when the next comes.
        page.decoder.flush(into: output)
        let diagnostics = page.decoder.diagnostics
        page.decoder.diagnostics.removeAll()
        pages[id] = page
        return diagnostics
    }

    /// The page went away: touches still down are cancelled.
    func closePage(_ id: Int, into output: DecoderOutput) -> Int? {
        guard var page = pages.removeValue(forKey: id) else { return nil }
        page.decoder.finish(into: output)
        return page.device
    }
}

extension GestureEvent {
    /// "two-finger swipe left", "double tap", "long press": how a rule's phrase says it.
    var spokenName: String {
        var words: [String] = []
        let numbers = ["", "", "two", "three", "four", "five"]
        if fingers > 1 { words.append((fingers < numbers.count ? numbers[fingers] : "\(fingers)") + "-finger") }
        if kind == .tap, taps == 2 { words.append("double") }
        if kind == .tap, taps == 3 { words.append("triple") }
        words.append(name ?? kind.phrase)
        if let edge { words.append("from \(edge.rawValue)") } else if let direction { words.append(direction.rawValue) }
        return words.joined(separator: " ")
    }
}
