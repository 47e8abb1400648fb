// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    // A member is used only from a module the file imports: no Foundation API reaches haul
    // through a dependency's import, which would link ICU's data back in.
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "haul",
    products: [
        .executable(name: "haul", targets: ["haul"])
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        // Without its Foundation trait: haul links FoundationEssentials only (no ICU data).
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.0", traits: []),
    ],
    targets: [
        // Value types and pure logic: no I/O, no terminal.
        .target(name: "HaulCore", dependencies: ["CLibXML2"], swiftSettings: swiftSettings),
        // libxml2's reader, for Metalink documents.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The JSON state file: schema, atomic save, lock, recovery.
        .target(name: "HaulStore", dependencies: ["HaulCore"], swiftSettings: swiftSettings),
        // HTTP: the transport seam, the transfer policy (what a response means for a download),
        // the clients on NIO and AsyncHTTPClient, and the sink that writes a body where it is told.
        .target(
            name: "HaulHTTP",
            dependencies: [
                "HaulCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: swiftSettings
        ),
        // libtorrent-rasterbar behind a C interface: the one place BitTorrent is spoken.
        .target(
            name: "CTorrent",
            cxxSettings: [
                // What `pkg-config --cflags libtorrent-rasterbar` gives: the library's ABI depends on them.
                .define("TORRENT_LINKING_SHARED"), .define("BOOST_ASIO_ENABLE_CANCELIO"),
                .define("BOOST_ASIO_NO_DEPRECATED"), .define("TORRENT_USE_OPENSSL"), .define("TORRENT_USE_LIBCRYPTO"),
                .define("TORRENT_SSL_PEERS"), .define("OPENSSL_NO_SSL2"), .define("BOOST_ALL_NO_LIB"),
            ],
            linkerSettings: [.linkedLibrary("torrent-rasterbar"), .linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        // The engine actor: transfers into .part files, resume, retries, limits, the state it keeps.
        .target(
            name: "HaulEngine",
            dependencies: [
                "HaulCore",
                "HaulStore",
                "HaulHTTP",
                "CLinux",
                "COpenSSL",
                "CTorrent",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Unix socket between haul processes: the owner of the state file serves its engine,
        // the TUI and every command reach it as a `RemoteEngine`.
        .target(name: "HaulRemote", dependencies: ["HaulCore", "HaulStore"], swiftSettings: swiftSettings),
        // aria2's JSON-RPC on the wire: JSON values, GIDs, bitfields; what the endpoint and the
        // client share.
        .target(name: "HaulAria2Wire", dependencies: ["HaulCore", "HaulStore"], swiftSettings: swiftSettings),
        // The aria2-compatible JSON-RPC endpoint (HTTP and WebSocket) over any `EngineSession`.
        .target(
            name: "HaulRPC",
            dependencies: [
                "HaulCore", "HaulStore", "HaulAria2Wire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A client of aria2's JSON-RPC: an engine on another machine (haul or aria2c) as an
        // `EngineSession`, for the UI and every command with `--connect`.
        .target(
            name: "HaulRPCClient",
            dependencies: [
                "HaulCore", "HaulAria2Wire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The screen model, views, key map and the row-binding observer layer: no terminal needed.
        .target(name: "HaulUI", dependencies: ["HaulCore"], swiftSettings: swiftSettings),
        // ncursesw, through a header of getters for what Swift 6 cannot use directly.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // Linux calls Swift's Glibc module leaves out (sync_file_range, pwritev2).
        .systemLibrary(name: "CLinux"),
        // The thin curses backend: draws HaulUI's grid and reads keys. The only code calling ncurses.
        .target(name: "HaulTerminal", dependencies: ["CNcurses", "HaulUI"], swiftSettings: swiftSettings),
        // A tiny HTTP/1.1 server on loopback: the demo's generated files and the tests' scripted faults.
        .target(name: "HaulLoopback", dependencies: ["HaulCore"], swiftSettings: swiftSettings),
        // The executable: argument parsing and wiring.
        .executableTarget(
            name: "haul",
            dependencies: [
                "HaulCore",
                "HaulStore",
                "HaulHTTP",
                "HaulEngine",
                "HaulRemote",
                "HaulAria2Wire",
                "HaulRPC",
                "HaulRPCClient",
                "HaulUI",
                "HaulTerminal",
                "HaulLoopback",
                "CLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Real servers and processes for tests: nginx on loopback, a fault-injecting server, spawning.
        .target(
            name: "HaulTestSupport",
            dependencies: [
                "HaulCore", "HaulHTTP", "HaulLoopback", "COpenSSL", .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),

        .testTarget(
            name: "HaulCoreTests", dependencies: ["HaulCore", "HaulTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "HaulStoreTests", dependencies: ["HaulCore", "HaulStore", "HaulTestSupport"],
            // Fixtures/: state files as older versions wrote them, read by path from the source tree.
            exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(
            name: "HaulHTTPTests",
            dependencies: [
                "HaulCore", "HaulHTTP", "HaulTestSupport",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HaulEngineTests",
            dependencies: [
                "HaulCore", "HaulStore", "HaulHTTP", "HaulEngine", "HaulTestSupport",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HaulRemoteTests",
            dependencies: ["HaulCore", "HaulStore", "HaulEngine", "HaulRemote", "HaulTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HaulRPCTests",
            dependencies: [
                "HaulCore", "HaulStore", "HaulEngine", "HaulAria2Wire", "HaulRPC", "HaulRPCClient", "HaulTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // Goldens/: the golden screens, read by path from the source tree (not resources).
        .testTarget(
            name: "HaulUITests", dependencies: ["HaulCore", "HaulUI", "HaulTestSupport"], exclude: ["Goldens"],
            swiftSettings: swiftSettings),
        // The command-line module's own logic.
        .testTarget(
            name: "HaulCommandTests",
            dependencies: [
                "haul", "HaulCore", "HaulEngine", "HaulRemote", "HaulStore", "HaulLoopback", "HaulTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HaulCLITests",
            dependencies: ["HaulCore", "HaulTestSupport"],
            // RPC/: the raw aria2 protocol script, run by path from the source tree.
            exclude: ["RPC"],
            swiftSettings: swiftSettings
        ),
    ],
    cxxLanguageStandard: .cxx17
)
