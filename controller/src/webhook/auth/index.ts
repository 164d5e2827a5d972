export * from "./authenticator.js";
export * from "./chat-a-signature.js";
export * from "./constant-time.js";
export * from "./hmac.js";
export * from "./standard-webhooks.js";
export * from "./timestamp.js";
export * from "./token.js";
