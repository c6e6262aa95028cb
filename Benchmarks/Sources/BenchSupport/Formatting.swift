/// `1234567` → `1,234,567`.
public func grouped(_ n: Int) -> String {
    let digits = Array(String(n.magnitude))
    var out = n < 0 ? "-" : ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return out
}

extension String {
    /// The string right-aligned in `width` columns (unchanged if it is wider).
    public func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// The string left-aligned in `width` columns (unchanged if it is wider).
    public func rightPadded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
