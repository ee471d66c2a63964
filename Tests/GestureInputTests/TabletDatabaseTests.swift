import Foundation
import GestureCore
@testable import GestureInput
import Testing

/// libwacom's `.tablet` files as a size step, with a fake database written here.
@Suite("Tablet sizes from libwacom's database")
struct TabletDatabaseTests {
    private func database(_ files: [String: String]) throws -> (TabletDatabase, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("libwacom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return (TabletDatabase(directories: [dir.path]), dir)
    }

    static let intuos = """
        [Device]
        Name=Wacom Intuos5 touch M
        DeviceMatch=usb:056a:0027;bluetooth:056a:0028:Some Name
        Width=9
        Height=6

        [Features]
        Width=99
        """

    @Test("Width and Height in inches become millimetres, for every DeviceMatch of the model")
    func parses() throws {
        let (db, dir) = try database(["intuos5-m.tablet": Self.intuos, "notes.txt": "Width=1"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let entry = try #require(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0x27)))
        #expect(entry.name == "Wacom Intuos5 touch M")
        #expect(abs(entry.width - 228.6) < 1e-9 && abs(entry.height - 152.4) < 1e-9)
        #expect(db.size(of: DeviceID(bus: 0x05, vendor: 0x56A, product: 0x28)) == entry)
        #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0x99)) == nil)
    }

    @Test("other vendors' entries, which describe digitizers built into laptops of many sizes, are not used")
    func wacomOnly() throws {
        let (db, dir) = try database(["n-trig.tablet": "[Device]\nName=N-Trig Pen\nDeviceMatch=usb:1b96:0001\nWidth=10\nHeight=6\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(db.size(of: DeviceID(bus: 3, vendor: 0x1B96, product: 1)) == nil)
        #expect(db.filesParsed == 0)
    }

    @Test("a lookup parses only the files that name the product, and none for another vendor's device")
    func readsOnlyWhatTheDeviceNeeds() throws {
        var files = ["intuos5-m.tablet": Self.intuos]
        for n in 0..<50 {
            files["other-\(n).tablet"] = "[Device]\nName=Other \(n)\nDeviceMatch=usb:056a:\(String(format: "%04x", 0x100 + n))\nWidth=8\nHeight=5\n"
        }
        // Upper-case hex in DeviceMatch is still found.
        files["upper.tablet"] = "[Device]\nName=Upper\nDeviceMatch=usb:056A:00AB\nWidth=8\nHeight=5\n"
        let (db, dir) = try database(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(db.size(of: DeviceID(bus: 0x18, vendor: 0x0EEF, product: 0x0027)) == nil)
        #expect(db.filesParsed == 0)
        #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0x27))?.name == "Wacom Intuos5 touch M")
        #expect(db.filesParsed == 1)
        // Asked again, it is remembered.
        #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0x27))?.name == "Wacom Intuos5 touch M")
        #expect(db.filesParsed == 1)
        #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0xAB))?.name == "Upper")
        #expect(db.filesParsed == 2)
        // A product no file names parses nothing.
        #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0x9999)) == nil)
        #expect(db.filesParsed == 2)
    }

    @Test("a file named after the product is read first: an ISDv4 panel costs one file")
    func namedFirst() throws {
        let (db, dir) = try database([
            "a-listing.tablet": "[Device]\nName=A listing\nDeviceMatch=usb:056a:00e6\nWidth=11\nHeight=7\n",
            "isdv4-e6.tablet": "[Device]\nName=Wacom ISDv4 E6\nDeviceMatch=usb:056a:00e6\nWidth=11\nHeight=6\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0xE6))?.name == "Wacom ISDv4 E6")
        #expect(db.filesParsed == 1)
    }

    @Test("no size, a nonsense size or an unknown bus gives no entry; a missing folder gives none at all")
    func hostile() throws {
        let (db, dir) = try database([
            "a.tablet": "[Device]\nDeviceMatch=usb:056a:0001\nWidth=0\nHeight=6\n",
            "b.tablet": "[Device]\nDeviceMatch=usb:056a:0002\nWidth=1e300\nHeight=6\n",
            "c.tablet": "[Device]\nDeviceMatch=parport:056a:0003\nWidth=9\nHeight=6\n",
            "d.tablet": "[Device]\nDeviceMatch=usb:zzzz:0004;usb:056a\nWidth=9\nHeight=6\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        for product: UInt16 in 1...4 {
            #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: product)) == nil)
            #expect(db.size(of: DeviceID(bus: 0x13, vendor: 0x56A, product: product)) == nil)
        }
        #expect(TabletDatabase(directories: ["/nonexistent/libwacom"]).size(of: DeviceID(bus: 3, vendor: 0x56A, product: 1)) == nil)
    }

    @Test("a FIFO in the database folder is skipped, not waited on")
    func fifo() throws {
        let (db, dir) = try database(["intuos5-m.tablet": Self.intuos])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("a-fifo.tablet").path, 0o600) == 0)
        #expect(db.size(of: DeviceID(bus: 0x03, vendor: 0x56A, product: 0x27))?.name == "Wacom Intuos5 touch M")
    }

    @Test("the ids come from evemu's I: line and evtest's header")
    func ids() {
        var evemu = EvemuDecoder(source: "x")
        let text = "N: Wacom Intuos5 touch M Finger\nI: 0003 056a 0027 0107\n"
        Array(text.utf8).withUnsafeBytes { evemu.feed($0) { _ in } }
        #expect(evemu.parser.stream.description.id == DeviceID(bus: 3, vendor: 0x56A, product: 0x27))
        #expect(EvtestParser.deviceID("Input device ID: bus 0x3 vendor 0x56a product 0x27 version 0x107")
                == DeviceID(bus: 3, vendor: 0x56A, product: 0x27))
        #expect(EvtestParser.deviceID("Input device ID: bus 0x3 vendor zz") == nil)
    }
}
