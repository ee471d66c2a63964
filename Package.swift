// swift-tools-version:6.0
import PackageDescription

// Release builds drop the run-time exclusivity checks: on the per-frame path
// they cost a few hundred instructions a frame (docs/performance.md). Debug
// builds, which the test suite runs, keep them, so a violation still fails there.
// Cross-module optimization lets the per-frame path inline small functions of
// other modules (a touch's phase, vector arithmetic) instead of calling them.
let fast: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release))]

// libdbus keeps a header in an architecture's library folder; the C shim that
// loads it at run time needs both include folders (pkg-config --cflags dbus-1).
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let dbusHeaders: [CSetting] = [.unsafeFlags(["-I/usr/include/dbus-1.0", "-I/usr/lib/\(multiarch)/dbus-1.0/include"])]

let package = Package(
    name: "gesturemap",
    products: [
        .executable(name: "gesturemap", targets: ["gesturemap"]),
    ],
    targets: [
        // System Lua 5.4 from Debian's liblua5.4-dev; never vendored.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // Lua's macros as real functions, the error trampoline, limits and the sandbox opener.
        .target(name: "CLuaShim", dependencies: ["CLua"]),
        // <linux/input.h> ioctls, one function per request.
        .target(name: "CEvdev"),
        // Debian's libevdev (libevdev-dev): live devices' events and their
        // resync after SYN_DROPPED, as the kernel documents it.
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .target(name: "CEvdevReader", dependencies: ["CLibevdev"]),
        // Debian's libyaml (libyaml-dev), the parser fusuma's own Ruby YAML (Psych) wraps:
        // `import` reads fusuma's config.yml as fusuma does, tabs, anchors and merge keys included.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // Debian's pugixml (libpugixml-dev), the parser Touchégg reads its own file with:
        // `import` reads touchegg.conf with it, so that the text of every binding is
        // Touchégg's (comments, CDATA, entities). C++, so read through CPugiShim's C functions.
        .systemLibrary(
            name: "CPugiXML",
            pkgConfig: "pugixml",
            providers: [.apt(["libpugixml-dev"])]
        ),
        .target(name: "CPugiShim", dependencies: ["CPugiXML"]),
        // posix_spawn with a process group, redirections and a working directory; pidfd_open.
        .target(name: "CSpawn"),
        .target(name: "GestureCore", swiftSettings: fast),
        // The operating system's plumbing, once: bounded reads, directories,
        // the monotonic clock, poll timeouts, threads, children and their exits; errors as types.
        .target(name: "GestureSystem", dependencies: ["CSpawn"], swiftSettings: fast),
        .target(name: "GestureInput", dependencies: ["GestureCore", "GestureSystem", "CEvdev", "CEvdevReader", "CLibevdev"], swiftSettings: fast),
        // Realistic NDJSON for named gestures, for demos, tests and benchmarks.
        .target(name: "GestureSynth", dependencies: ["GestureCore"], swiftSettings: fast),
        .target(name: "GestureScript", dependencies: ["GestureCore", "GestureSystem", "CLuaShim", "GestureContext"], swiftSettings: fast),
        .target(name: "GestureActions", dependencies: ["GestureCore", "GestureSystem", "GestureInput", "CLibevdev", "CSpawn"], swiftSettings: fast),
        .target(
            name: "GestureEngine",
            dependencies: ["GestureCore", "GestureSystem", "GestureInput", "GestureScript", "GestureActions", "GestureContext", "GestureServe"],
            swiftSettings: fast
        ),
        // The author tools (explain, draw, test, shape, record, synth, check):
        // they observe a run through EngineObserver and the engine's public face.
        .target(
            name: "GestureTools",
            dependencies: ["GestureCore", "GestureSystem", "GestureInput", "GestureScript", "GestureSynth", "GestureActions", "GestureEngine", "CYAML", "CPugiShim"],
            swiftSettings: fast
        ),
        // The focused application (X11, Wayland, D-Bus: loaded at run time, never linked), held keys, quiet while typing.
        .target(name: "CContext", cSettings: dbusHeaders),
        .target(name: "GestureContext", dependencies: ["CContext", "CEvdev", "GestureCore", "GestureSystem"], swiftSettings: fast),
        // OpenSSL's libcrypto (libssl-dev): SHA-1 for the WebSocket handshake of `serve`.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libqrencode, loaded at run time (libqrencode4): the pairing URL as a QR code, or a note without it.
        .target(name: "CQRCode"),
        // `serve`: the phone page, HTTP/1.1 and the RFC 6455 subset it needs, pairing and limits.
        // `serve --cert/--key`: OpenSSL's libssl on the server's non-blocking sockets.
        .target(name: "CServeTLS", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        .target(name: "GestureServe", dependencies: ["GestureCore", "GestureInput", "CCrypto", "CQRCode", "CServeTLS"], swiftSettings: fast),
        .executableTarget(name: "gesturemap", dependencies: ["GestureCore", "GestureSystem", "GestureInput", "GestureScript", "GestureActions", "GestureEngine", "GestureSynth", "GestureTools", "GestureContext", "GestureServe"], swiftSettings: fast),

        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore"], exclude: ["Fixtures"]),
        .testTarget(name: "GestureSystemTests", dependencies: ["GestureSystem"]),
        // Fixtures/fuzz: inputs that broke a fuzz target (scripts/fuzz), kept for the tests.
        .testTarget(name: "GestureInputTests", dependencies: ["GestureInput", "GestureCore"], exclude: ["Fixtures"]),
        .testTarget(name: "GestureSynthTests", dependencies: ["GestureSynth", "GestureCore", "GestureInput"]),
        .testTarget(name: "GestureScriptTests", dependencies: ["GestureScript", "GestureCore", "CLuaShim", "GestureContext"], exclude: ["Fixtures"]),
        .testTarget(name: "GestureActionsTests", dependencies: ["GestureActions", "GestureCore", "GestureInput", "GestureSystem", "CLibevdev"]),
        .testTarget(name: "GestureEngineTests", dependencies: ["GestureEngine", "GestureCore", "GestureInput", "GestureActions", "GestureContext", "GestureSynth"]),
        .testTarget(name: "GestureToolsTests", dependencies: ["GestureTools", "GestureEngine", "GestureCore", "GestureActions"], exclude: ["Fixtures"]),
        // GestureTools and GestureActions: the import tests read the bindings and keys they expect a run to act out.
        .testTarget(name: "gesturemapTests", dependencies: ["gesturemap", "GestureTools", "GestureActions", "GestureSystem"],
                    // The kernel suite's Wayland client, in C: built by scripts/kernel-test, not SwiftPM.
                    exclude: ["Kernel/gesture-client"]),
        .testTarget(name: "GestureServeTests", dependencies: ["GestureServe", "GestureInput"]),
        .testTarget(name: "GestureContextTests", dependencies: ["GestureContext", "CContext", "GestureCore", "GestureSystem", "gesturemap"], exclude: ["Fixtures"]),
    ]
)
