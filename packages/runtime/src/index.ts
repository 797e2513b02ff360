export { deadline, type Deadline } from "./deadline.js";
export { checkBaseUrl, checkNumber, env, type InputErrorFactory, isBrowser } from "./environment.js";
export { integerHeader, retryAfterMs } from "./headers.js";
export { buildUrl, outgoingFrom, parseJson, type Query, responseFrom } from "./http.js";
export { checkApiKey, type KeyRules } from "./keys.js";
export { type Logger, silentLogger } from "./logger.js";
export { jsonOutgoing, resolveTransport, type Transport, type TransportOptions } from "./transport.js";
export { type Answer, type Outgoing, type RetryDecision, retryOn429, type SendConfig, type SendOptions, send } from "./send.js";
export { abortReason, sleep } from "./sleep.js";
