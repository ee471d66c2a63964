import Foundation

/// A file with `contents` in a directory of its own, for a tool's input or rules.
func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-tools-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try contents.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// ChromeOS autotest's TouchMTB recordings in `<package root>/../shared/data/real`.
let touchMTBDirectory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // GestureToolsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .deletingLastPathComponent()
    .appendingPathComponent("shared/data/real/chromeos-autotest-firmware_TouchMTB")
    .path

let evdevRecordingsPresent = FileManager.default.fileExists(atPath: touchMTBDirectory)

func touchMTBPath(_ name: String) -> String { touchMTBDirectory + "/data/" + name }

/// An empty directory of its own.
func scratchDirectory(_ name: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}
