export {
  type ConnectClientOptions,
  ConnectClient,
  type ConnectMeta,
  type ConnectRequestInit,
  type ConnectResult,
  createConnectClient,
  type Environment,
} from "./client.js";
export {
  ConnectApiError,
  ConnectConnectionError,
  ConnectError,
  ConnectInputError,
  ConnectRedirectError,
  ConnectResponseError,
  ConnectResponseTooLargeError,
  ConnectTimeoutError,
} from "./errors.js";
export type { components, paths } from "./generated/connect.types.js";
export type { Logger } from "@content-scraper/runtime";
