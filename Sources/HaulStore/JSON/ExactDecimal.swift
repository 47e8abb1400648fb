import HaulCore

/// Plain decimals (`-12.345`, at most 19 digits, no exponent) read to the nearest `Double`,
/// without `strtod`.
///
/// The state file's dates are such numbers (`1795611683.9097154`), two per download, read in the
/// one pass over the file (see docs/PERFORMANCE.md). The value is the integer of all the
/// digits, `m`, over `10^k` for `k` digits after the point, divided exactly in 128 bits and
/// rounded once, so it is the same `Double` that `strtod` gives. Anything else returns nil.
public enum ExactDecimal {
    public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var m: UInt64 = 0
        var digits = 0
        var integerDigits = 0
        var fractionDigits = 0
        var pointSeen = false
        while i < text.count {
            let byte = text[i]
            i += 1
            if byte == UInt8(ascii: "."), !pointSeen, integerDigits > 0 {
                pointSeen = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 19 else { return nil }
            m = m * 10 + UInt64(byte - UInt8(ascii: "0"))
            digits += 1
            if pointSeen { fractionDigits += 1 } else { integerDigits += 1 }
        }
        guard integerDigits > 0, !pointSeen || fractionDigits > 0 else { return nil }
        let magnitude = fractionDigits == 0 ? Double(m) : quotient(m, tenTo: fractionDigits)
        return negative ? -magnitude : magnitude
    }

    /// `m / 10^k` rounded once to nearest, ties to even.
    private static func quotient(_ m: UInt64, tenTo k: Int) -> Double {
        guard m != 0 else { return 0 }
        var divisor: UInt64 = 1
        for _ in 0..<k { divisor *= 10 }
        // Shift m so that the quotient has 63 or 64 bits: Double(_:) then rounds it once, and a
        // nonzero remainder, folded into the lowest bit (10 bits below the rounding point),
        // breaks what would otherwise look like a tie.
        let shift = 63 + (64 - divisor.leadingZeroBitCount) - (64 - m.leadingZeroBitCount)
        let (q, r) = (UInt128(m) << shift).quotientAndRemainder(dividingBy: UInt128(divisor))
        let significand = UInt64(q) | (r == 0 ? 0 : 1)
        return Double(sign: .plus, exponent: -shift, significand: Double(significand))
    }
}
