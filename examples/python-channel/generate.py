"""Generates the Python modules of the Errand plugin interface into gen/.

Run from anywhere: python3 generate.py [--proto DIR] [--out DIR]
(defaults: the repository's proto/ folder, and gen/ beside this file; the
@errand/proto npm package holds the same files as proto/).

Messages (*_pb2.py) come from `protoc` (Debian: protobuf-compiler), the
service stubs (*_pb2_grpc.py) from grpcio-tools (Debian: python3-grpc-tools).
The stubs are generated from a descriptor set that protoc writes, so that a
grpcio-tools whose bundled protoc predates proto3 `optional` fields (Debian
12 ships 1.14) still works: it never parses the .proto files itself.

grpc.health.v1 is compiled as health/v1/health.proto, so that its modules land
in gen/health/v1/ and import as `health.v1`: under gen/grpc/ they would be
shadowed by grpcio's own `grpc` package. go-plugin's controller service is
compiled as goplugin/grpc_controller.proto for the same reason: `plugin`
would be plugin.py. The proto packages, and so the gRPC service names the
host calls, stay the same.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_PROTO = os.path.normpath(os.path.join(HERE, "..", "..", "proto"))

# (file below proto/, the path it is compiled as); that path becomes the module path.
SOURCES = [
    ("errand/v1/common.proto", "errand/v1/common.proto"),
    ("errand/v1/notifications.proto", "errand/v1/notifications.proto"),
    ("vendor/grpc/health/v1/health.proto", "health/v1/health.proto"),
    ("vendor/plugin/grpc_controller.proto", "goplugin/grpc_controller.proto"),
]


def fail(message):
    sys.stderr.write(f"generate.py: {message}\n")
    sys.exit(1)


def well_known_types_root():
    """The folder holding google/protobuf/struct.proto: libprotobuf-dev's, or grpcio-tools' copy."""
    candidates = ["/usr/include", "/usr/local/include"]
    try:
        import grpc_tools

        candidates.append(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))
    except ImportError:
        pass
    for root in candidates:
        if os.path.exists(os.path.join(root, "google", "protobuf", "struct.proto")):
            return root
    fail("google/protobuf/struct.proto was not found; install libprotobuf-dev (Debian) or grpcio-tools (pip)")


def main():
    options = argparse.ArgumentParser(description="Generates the Errand plugin interface's Python modules.")
    options.add_argument("--proto", default=REPO_PROTO, help="folder holding errand/ and vendor/ (default: the repository's proto/)")
    options.add_argument("--out", default=os.path.join(HERE, "gen"), help="where the modules go (default: gen/ beside this file)")
    args = options.parse_args()
    proto, out = os.path.abspath(args.proto), os.path.abspath(args.out)
    if not os.path.exists(os.path.join(proto, "errand", "v1", "notifications.proto")):
        fail(f"{proto} holds no errand/v1/notifications.proto; pass --proto with the proto/ folder of Errand or the unpacked @errand/proto package")
    if shutil.which("protoc") is None:
        fail("protoc is not installed; install protobuf-compiler (Debian) and run again")
    try:
        from grpc_tools import protoc as grpc_protoc
    except ImportError:
        fail("grpcio-tools is not installed; install python3-grpc-tools (Debian) or `pip install grpcio-tools`")
    os.makedirs(out, exist_ok=True)
    wkt = well_known_types_root()
    with tempfile.TemporaryDirectory(prefix="errand-protos-") as staging:
        # Every file is copied to the path it is compiled as; the errand files import each other by those paths.
        for source, path in SOURCES:
            os.makedirs(os.path.dirname(os.path.join(staging, path)), exist_ok=True)
            shutil.copyfile(os.path.join(proto, source), os.path.join(staging, path))
        for _, path in SOURCES:
            descriptors = os.path.join(staging, "descriptors.pb")
            subprocess.run(["protoc", "-I", staging, "-I", wkt, f"--python_out={out}", "--include_imports",
                            f"--descriptor_set_out={descriptors}", path], check=True)
            # grpc_tools.protoc.main, not `python3 -m grpc_tools.protoc`: the latter adds an -I, which
            # protoc refuses beside --descriptor_set_in.
            if grpc_protoc.main(["grpc_tools.protoc", f"--descriptor_set_in={descriptors}", f"--grpc_python_out={out}", path]) != 0:
                fail(f"grpcio-tools could not generate the service stubs of {path}")
    print(f"generated the interface's modules in {out}")


if __name__ == "__main__":
    main()
