/** The notification channel interface version this SDK speaks natively. */
export const INTERFACE_VERSION = 1;

/** Every interface version this SDK can serve or host. */
export const SUPPORTED_INTERFACE_VERSIONS: readonly number[] = [1];

/**
 * go-plugin's magic cookie: a host sets it in the plugin's environment so a
 * plugin started by hand can tell it was not launched by a host.
 */
export const MAGIC_COOKIE_KEY = "ERRAND_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "errand-notification-channel";

/** go-plugin's core protocol version: the first field of the handshake line. */
export const CORE_PROTOCOL_VERSION = 1;

/** The health service name go-plugin hosts check. */
export const HEALTH_SERVICE_NAME = "plugin";

/** The per-call target of the interface: every notification answers within this. */
export const CALL_TARGET_MS = 5_000;
