"""A gRPC client in another language, built from the .proto files alone.

The interoperability test compiles proto/errand/v1/*.proto with Debian's
protoc (--python_out) and runs this script against a plugin made with the
SDK. Service stubs are written by hand from the method paths, as any
language's client could be. Prints one JSON object with each RPC's outcome.
"""
import json
import sys

import grpc
from google.protobuf import json_format

from errand.v1 import common_pb2, notifications_pb2

SERVICE = "/errand.v1.NotificationChannel/"


def call(channel, method, request, response_type):
    stub = channel.unary_unary(
        SERVICE + method,
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=response_type.FromString,
    )
    try:
        return {"ok": json_format.MessageToDict(stub(request, timeout=5))}
    except grpc.RpcError as error:
        return {"code": error.code().name, "details": error.details()}


def main():
    target = sys.argv[1]
    ticket = common_pb2.Ticket(
        id="101", title="Ünïcødé ticket ✓", labels=["agent", "bug"], source="codehost_a",
        external_url="https://codehost.example/acme/app/issues/101",
    )
    ticket.raw_event.update({"action": "opened", "issue": {"number": 101}})
    handshake = common_pb2.HandshakeRequest(
        interface_version=1, supported_versions=[1], host_name="python-client", secrets={"token": "py-secret"},
    )
    handshake.config.update({"channel_id": "C-PY", "nested": {"n": 1}})
    result = common_pb2.TaskResult(
        success=True, summary="done", pull_request_url="https://codehost.example/acme/app/pull/5",
        cost_usd=1.25, duration_ms=61000,
        token_usage=common_pb2.TokenUsage(input_tokens=1000, output_tokens=200),
    )
    with grpc.insecure_channel(target) as channel:
        out = {
            "handshake_v7": call(channel, "Handshake", common_pb2.HandshakeRequest(interface_version=7), common_pb2.HandshakeResponse),
            "handshake": call(channel, "Handshake", handshake, common_pb2.HandshakeResponse),
            "notify": call(channel, "Notify", notifications_pb2.NotifyRequest(message="halfway", ticket=ticket, task_run_id="run-py"), notifications_pb2.NotifyResponse),
            "notify_start": call(channel, "NotifyStart", notifications_pb2.NotifyStartRequest(ticket=ticket, task_run_id="run-py", engine="py-engine"), notifications_pb2.NotifyStartResponse),
            "notify_complete": call(channel, "NotifyComplete", notifications_pb2.NotifyCompleteRequest(ticket=ticket, task_run_id="run-py", result=result), notifications_pb2.NotifyCompleteResponse),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
