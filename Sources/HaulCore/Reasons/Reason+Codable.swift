import FoundationEssentials

/// Reasons are stored as flat objects with a `kind` (`{"kind":"status","status":404}`), readable
/// by anything that reads the state file. A plain string is what an older haul stored: it reads
/// back as ``FailureReason/other(_:)`` or ``Notice/text(_:)``.
private struct ReasonRecord: Codable {
    var kind: String
    var status: Int?
    var text: String?
    var host: String?
    var port: Int?
    var limit: Int?
    var seconds: Int?
    var received: Int64?
    var expected: Int64?
    var shortfall: Int64?
    var startOver: StartOverReason?
    var algorithm: String?
    var expectedDigest: String?
    var actualDigest: String?
    var because: FailureReason?
    var at: Date?
    var attempt: Int?
    var of: Int?
    var got: String?
    var connections: Int?

    init(kind: String) { self.kind = kind }
}

extension FailureReason: Codable {
    /// A reason an older haul stored as text.
    public init(storedText text: String) {
        self = text == ReasonText.failure(.cancelled) ? .cancelled : .other(text)
    }

    public init(from decoder: Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = FailureReason(storedText: text)
            return
        }
        let r = try ReasonRecord(from: decoder)
        func need<T>(_ value: T?) throws -> T {
            guard let value else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: r.kind))
            }
            return value
        }
        switch r.kind {
        case "status": self = .status(try need(r.status))
        case "noContent": self = .noContent
        case "redirectWithoutLocation": self = .redirectWithoutLocation(status: try need(r.status))
        case "invalidRedirect": self = .invalidRedirect
        case "redirectToScheme": self = .redirectToScheme(try need(r.text))
        case "tooManyRedirects": self = .tooManyRedirects(limit: try need(r.limit))
        // Kinds of an older haul, which decoded content codings: kept as their words.
        case "unsupportedEncoding":
            self = .other("the server sent the file encoded as '\(try need(r.text))', which haul cannot decode")
        case "encodedRangeResponses":
            self = .other("the server encodes its answers to range requests, so the download cannot resume")
        case "startedOverTooOften": self = .startedOverTooOften(try need(r.startOver))
        case "completeWithoutFile": self = .completeWithoutFile
        case "closedEarly": self = .closedEarly(received: try need(r.received), expected: try need(r.expected))
        case "bodyCutShort": self = .bodyCutShort
        case "serverClosedConnection": self = .serverClosedConnection
        case "stalled": self = .stalled(seconds: try need(r.seconds))
        case "cannotConnect":
            self = .cannotConnect(host: try need(r.host), port: try need(r.port), why: try need(r.text))
        case "connectionFailed": self = .connectionFailed(try need(r.text))
        case "rangesRefused": self = .rangesRefused
        case "wrongRange": self = .wrongRange(asked: try need(r.text), got: try need(r.got))
        case "malformedResponse": self = .malformedResponse(try need(r.text))
        case "requestHeaderRefused": self = .requestHeaderRefused
        case "tls": self = .tls(try need(r.text))
        case "diskFull": self = .diskFull(shortfall: r.shortfall)
        case "checksumMismatch":
            self = .checksumMismatch(
                algorithm: try need(r.algorithm), expected: try need(r.expectedDigest),
                actual: try need(r.actualDigest))
        case "file": self = .file(try need(r.text))
        case "cancelled": self = .cancelled
        default: self = .other(r.text ?? ReasonText.failure(.other(r.kind)))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var r: ReasonRecord
        switch self {
        case .status(let status):
            r = ReasonRecord(kind: "status")
            r.status = status
        case .noContent: r = ReasonRecord(kind: "noContent")
        case .redirectWithoutLocation(let status):
            r = ReasonRecord(kind: "redirectWithoutLocation")
            r.status = status
        case .invalidRedirect: r = ReasonRecord(kind: "invalidRedirect")
        case .redirectToScheme(let scheme):
            r = ReasonRecord(kind: "redirectToScheme")
            r.text = scheme
        case .tooManyRedirects(let limit):
            r = ReasonRecord(kind: "tooManyRedirects")
            r.limit = limit
        case .startedOverTooOften(let why):
            r = ReasonRecord(kind: "startedOverTooOften")
            r.startOver = why
        case .completeWithoutFile: r = ReasonRecord(kind: "completeWithoutFile")
        case .closedEarly(let received, let expected):
            r = ReasonRecord(kind: "closedEarly")
            r.received = received
            r.expected = expected
        case .bodyCutShort: r = ReasonRecord(kind: "bodyCutShort")
        case .serverClosedConnection: r = ReasonRecord(kind: "serverClosedConnection")
        case .stalled(let seconds):
            r = ReasonRecord(kind: "stalled")
            r.seconds = seconds
        case .cannotConnect(let host, let port, let why):
            r = ReasonRecord(kind: "cannotConnect")
            r.host = host
            r.port = port
            r.text = why
        case .connectionFailed(let text):
            r = ReasonRecord(kind: "connectionFailed")
            r.text = text
        case .rangesRefused: r = ReasonRecord(kind: "rangesRefused")
        case .wrongRange(let asked, let got):
            r = ReasonRecord(kind: "wrongRange")
            r.text = asked
            r.got = got
        case .malformedResponse(let text):
            r = ReasonRecord(kind: "malformedResponse")
            r.text = text
        case .requestHeaderRefused: r = ReasonRecord(kind: "requestHeaderRefused")
        case .tls(let text):
            r = ReasonRecord(kind: "tls")
            r.text = text
        case .diskFull(let shortfall):
            r = ReasonRecord(kind: "diskFull")
            r.shortfall = shortfall
        case .checksumMismatch(let algorithm, let expected, let actual):
            r = ReasonRecord(kind: "checksumMismatch")
            r.algorithm = algorithm
            r.expectedDigest = expected
            r.actualDigest = actual
        case .file(let text):
            r = ReasonRecord(kind: "file")
            r.text = text
        case .cancelled: r = ReasonRecord(kind: "cancelled")
        case .other(let text):
            r = ReasonRecord(kind: "other")
            r.text = text
        }
        try r.encode(to: encoder)
    }
}

extension Notice: Codable {
    public init(from decoder: Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .text(text)
            return
        }
        let r = try ReasonRecord(from: decoder)
        switch r.kind {
        case "retrying":
            guard let because = r.because, let at = r.at, let attempt = r.attempt, let of = r.of else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: r.kind))
            }
            self = .retrying(because: because, at: at, attempt: attempt, of: of)
        case "startedOver":
            guard let why = r.startOver else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: r.kind))
            }
            self = .startedOver(why)
        case "fewerConnections":
            guard let because = r.because, let connections = r.connections else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: r.kind))
            }
            self = .fewerConnections(connections, because: because)
        case "budgetUsed":
            guard let used = r.received, let budget = r.expected, let period = r.text.flatMap(BudgetPeriod.init)
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: r.kind))
            }
            self = .budgetUsed(used: used, budget: budget, period: period)
        case "heldUntil":
            guard let minute = r.seconds else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: r.kind))
            }
            self = .heldUntil(minute: minute)
        case "otherFileAtNewLink": self = .otherFileAtNewLink(size: r.received, was: r.expected)
        case "cannotSeed": self = .cannotSeed(why: r.text ?? "")
        case "waitingForNetwork":
            guard let because = r.because else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: r.kind))
            }
            self = .waitingForNetwork(because: because)
        default: self = .text(r.text ?? r.kind)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var r: ReasonRecord
        switch self {
        case .retrying(let because, let at, let attempt, let of):
            r = ReasonRecord(kind: "retrying")
            r.because = because
            r.at = at
            r.attempt = attempt
            r.of = of
        case .startedOver(let why):
            r = ReasonRecord(kind: "startedOver")
            r.startOver = why
        case .fewerConnections(let connections, let because):
            r = ReasonRecord(kind: "fewerConnections")
            r.connections = connections
            r.because = because
        case .budgetUsed(let used, let budget, let period):
            r = ReasonRecord(kind: "budgetUsed")
            r.received = used
            r.expected = budget
            r.text = period.rawValue
        case .heldUntil(let minute):
            r = ReasonRecord(kind: "heldUntil")
            r.seconds = minute
        case .otherFileAtNewLink(let size, let was):
            r = ReasonRecord(kind: "otherFileAtNewLink")
            r.received = size
            r.expected = was
        case .cannotSeed(let why):
            r = ReasonRecord(kind: "cannotSeed")
            r.text = why
        case .waitingForNetwork(let because):
            r = ReasonRecord(kind: "waitingForNetwork")
            r.because = because
        case .text(let text):
            r = ReasonRecord(kind: "text")
            r.text = text
        }
        try r.encode(to: encoder)
    }
}
