import Foundation

/// Whom a run tells when it fails, is refused, is interrupted or warns: a webhook that gets
/// the run summary's JSON in a POST. A notification that fails is logged, never fatal.
///
/// ```yaml
/// notify:
///   webhook: "${WEBHOOK_URL}"   # empty: no webhook (FIELDGUIDE_WEBHOOK_URL is used then, when set)
///   timeout: 10s                # the whole POST, default 10 s
/// ```
public struct NotifySpec: Sendable, Equatable, Decodable {
    /// An `http://` or `https://` address, or a parameter.
    public var webhook: String?
    public var timeout: StageTimeout

    /// The environment variable that names the webhook when the pipeline file leaves it empty.
    public static let environmentVariable = "FIELDGUIDE_WEBHOOK_URL"

    enum CodingKeys: String, CodingKey { case webhook, timeout }

    public init(webhook: String?, timeout: StageTimeout = StageTimeout(seconds: 10)) { self.webhook = webhook; self.timeout = timeout }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        webhook = try c.decodeIfPresent(String.self, forKey: .webhook)
        timeout = try c.decodeIfPresent(StageTimeout.self, forKey: .timeout) ?? StageTimeout(seconds: 10)
    }
}

extension PipelineDefinition {
    /// The webhook address for a run with `parameters` set: the pipeline file's (parameters
    /// expanded), else `FIELDGUIDE_WEBHOOK_URL` from `environment`; nil when neither names one.
    public func webhook(parameters: [String: String], environment: [String: String]) -> String? {
        let file = notify?.webhook.map { PipelinePlan.expand($0, self.parameters.merging(parameters) { $1 }) }
        let address = file?.trimmingCharacters(in: .whitespaces) ?? ""
        if !address.isEmpty { return address }
        let fromEnvironment = environment[NotifySpec.environmentVariable]?.trimmingCharacters(in: .whitespaces) ?? ""
        return fromEnvironment.isEmpty ? nil : fromEnvironment
    }
}
