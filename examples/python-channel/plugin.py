"""An Errand notification channel plugin in Python: posts each notification to a webhook.

Speaks go-plugin's protocol as the Errand controller expects it: the magic
cookie, one handshake line on stdout (nothing else is ever written there),
gRPC on a private Unix socket with errand.v1.NotificationChannel,
grpc.health.v1.Health and plugin.GRPCController. Logs go to stderr as hclog
JSON lines. Generate the interface's modules first: python3 generate.py.
See docs/python-plugin.md.
"""
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from concurrent import futures
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "gen"))
sys.path.insert(0, HERE)

NAME = "python_webhook"
VERSION = "0.1.0"
COOKIE = ("ERRAND_PLUGIN_MAGIC_COOKIE", "errand-notification-channel")
# Linux's limit for a Unix socket path (103 on macOS and the BSDs).
MAX_SOCKET_PATH = 107


def log(level, message, **fields):
    """One hclog JSON line on stderr, which a go-plugin host parses; stdout is the protocol's."""
    record = {"@level": level, "@message": message, "@timestamp": datetime.now(timezone.utc).isoformat(), **fields}
    sys.stderr.write(json.dumps(record) + "\n")
    sys.stderr.flush()


def refuse_to_start(message):
    sys.stderr.write(f"{NAME}: {message}\n")
    sys.exit(1)


if os.environ.get(COOKIE[0]) != COOKIE[1]:
    refuse_to_start("this is an Errand notification channel plugin; the controller starts it. To try it, run "
                    "`npx --package @errand/cli channel test --config errand-conformance.json -- python3 plugin.py` (the conformance checks) or `channel send`.")
if "1" not in os.environ.get("PLUGIN_PROTOCOL_VERSIONS", "1").replace(",", " ").split():
    refuse_to_start(f"the host offers interface versions {os.environ['PLUGIN_PROTOCOL_VERSIONS']}; this plugin speaks 1")
if os.environ.get("ERRAND_PLUGIN_TRANSPORT", "unix") not in ("", "unix") or os.environ.get("PLUGIN_CLIENT_CERT"):
    refuse_to_start("this example serves only a Unix socket without AutoMTLS; set ERRAND_PLUGIN_TRANSPORT=unix (or leave it unset) and no PLUGIN_CLIENT_CERT")

try:
    import grpc
    from google.protobuf import json_format

    from errand.v1 import common_pb2, notifications_pb2, notifications_pb2_grpc
    from health.v1 import health_pb2, health_pb2_grpc
    from goplugin import grpc_controller_pb2, grpc_controller_pb2_grpc
except ImportError as error:
    refuse_to_start(f"{error}: install python3-grpcio and python3-protobuf, and run `python3 generate.py` beside plugin.py")

import webhook  # noqa: E402

stopping = threading.Event()
settings = {}


def budget_end(context):
    """When the channel gives up: a little before the call's deadline, so the host gets an answer."""
    left = context.time_remaining()
    left = 4.5 if left is None else left
    return time.monotonic() + left - min(0.5, left / 4)


def deliver(context, text):
    if "url" not in settings:
        context.abort(grpc.StatusCode.FAILED_PRECONDITION, "Handshake has not configured the channel yet")
    try:
        webhook.post(settings["url"], text, budget_end(context), stopping)
    except webhook.DeliveryError as error:
        log("warn", "delivery failed", channel=NAME, error=str(error))
        code = grpc.StatusCode.UNAVAILABLE if error.retryable else grpc.StatusCode.FAILED_PRECONDITION
        context.abort(code, str(error))


class Channel(notifications_pb2_grpc.NotificationChannelServicer):
    def Handshake(self, request, context):
        if request.interface_version != 1:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                          f"interface version {request.interface_version} is not supported by {NAME} {VERSION}; it supports 1")
        config = json_format.MessageToDict(request.config)
        secret = config.get("webhook_url_secret")
        if not isinstance(secret, str) or not secret:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          "invalid config: config.webhook_url_secret: is required: name the secret that holds the webhook URL")
        url = request.secrets.get(secret, "")
        if not url.startswith(("http://", "https://")):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"invalid secret: the secret {secret!r} (config.webhook_url_secret) must hold an http(s) URL; set it in the controller's secret store")
        settings["url"] = url
        log("info", "configured", channel=NAME, host=request.host_name)  # never the URL: it is a secret
        return common_pb2.HandshakeResponse(interface_version=1, supported_versions=[1], name=NAME, version=VERSION)

    def Notify(self, request, context):
        deliver(context, webhook.text_of(request.ticket.title, request.message))
        return notifications_pb2.NotifyResponse()

    def NotifyStart(self, request, context):
        deliver(context, webhook.text_of(f"Started: {request.ticket.title}", f"engine {request.engine}", request.ticket.external_url))
        return notifications_pb2.NotifyStartResponse()

    def NotifyComplete(self, request, context):
        result = request.result
        outcome = f"Done: {result.pull_request_url}" if result.success else f"Failed: {result.failure_reason}"
        deliver(context, webhook.text_of(request.ticket.title, outcome, result.summary))
        return notifications_pb2.NotifyCompleteResponse()


def health_status(request, context):
    if request.service not in ("", "plugin"):
        context.abort(grpc.StatusCode.NOT_FOUND, f"unknown service {request.service!r}")
    serving = health_pb2.HealthCheckResponse.NOT_SERVING if stopping.is_set() else health_pb2.HealthCheckResponse.SERVING
    return health_pb2.HealthCheckResponse(status=serving)


class Health(health_pb2_grpc.HealthServicer):
    def Check(self, request, context):
        return health_status(request, context)

    def Watch(self, request, context):
        yield health_status(request, context)
        stopping.wait()
        yield health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.NOT_SERVING)


class Controller(grpc_controller_pb2_grpc.GRPCControllerServicer):
    def Shutdown(self, request, context):
        stopping.set()
        return grpc_controller_pb2.Empty()


def socket_folder():
    base = os.environ.get("PLUGIN_UNIX_SOCKET_DIR") or tempfile.gettempdir()
    if len(os.path.join(base, "errand-plugin-XXXXXXXX", "plugin.sock")) > MAX_SOCKET_PATH:
        refuse_to_start(f"PLUGIN_UNIX_SOCKET_DIR={base} is too long for a Unix socket path; choose a shorter folder")
    try:
        return tempfile.mkdtemp(prefix="errand-plugin-", dir=base)
    except OSError as error:
        refuse_to_start(f"cannot create the socket folder in PLUGIN_UNIX_SOCKET_DIR={base}: {error}")


def watch_parent(parent):
    # A host that dies without a word leaves us orphaned: stop rather than linger.
    while not stopping.wait(0.5):
        if os.getppid() != parent:
            stopping.set()


def main():
    folder = socket_folder()
    address = os.path.join(folder, "plugin.sock")
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    notifications_pb2_grpc.add_NotificationChannelServicer_to_server(Channel(), server)
    health_pb2_grpc.add_HealthServicer_to_server(Health(), server)
    grpc_controller_pb2_grpc.add_GRPCControllerServicer_to_server(Controller(), server)
    server.add_insecure_port(f"unix:{address}")
    server.start()
    for stop_signal in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop_signal, lambda *_: stopping.set())
    # Ctrl-C reaches the whole process group; the host decides when its plugins stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
    sys.stdout.write(f"1|1|unix|{address}|grpc\n")
    sys.stdout.flush()
    while not stopping.wait(0.2):
        pass
    server.stop(0.5).wait()
    shutil.rmtree(folder, ignore_errors=True)
    lent = os.environ.get("ERRAND_PLUGIN_SOCKET_DIR_LENT")
    if lent and lent == os.environ.get("PLUGIN_UNIX_SOCKET_DIR"):
        try:
            os.rmdir(lent)  # only once empty
        except OSError:
            pass
    sys.stderr.flush()
    # Worker threads may still wait on a hanging target; they must not hold the exit.
    os._exit(0)


if __name__ == "__main__":
    main()
