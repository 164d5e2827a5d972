// A hashicorp/go-plugin host, used by the interoperability test to prove that
// a plugin made with @errand/channel-sdk can be driven by go-plugin unchanged.
// It launches the plugin, pings its health service, sends one NotifyStart
// (encoded by hand: this host has no generated code), and kills it the
// go-plugin way (GRPCController/Shutdown, then 2 s, then SIGKILL).
// It prints one JSON object with what happened; its own hclog logger (level
// INFO, as operators run it) writes the plugin's forwarded log lines to stderr.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

type channelPlugin struct{ plugin.NetRPCUnsupportedPlugin }

func (channelPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error { return nil }
func (channelPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (interface{}, error) {
	return conn, nil
}

// rawCodec passes protobuf bytes through untouched.
type rawCodec struct{}

func (rawCodec) Marshal(v interface{}) ([]byte, error)      { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v interface{}) error { *(v.(*[]byte)) = append([]byte(nil), data...); return nil }
func (rawCodec) Name() string                               { return "proto" }

func field(number int, value string) []byte {
	out := []byte{byte(number<<3 | 2), byte(len(value))}
	return append(out, value...)
}

type report struct {
	Ping        string `json:"ping"`
	NotifyStart string `json:"notifyStart"`
	Response    []byte `json:"response"`
	KillMs      int64  `json:"killMs"`
	Exited      bool   `json:"exited"`
	AutoMTLS    bool   `json:"autoMTLS"`
}

func main() {
	autoMTLS := flag.Bool("automtls", false, "use go-plugin's AutoMTLS")
	title := flag.String("title", "Fix the login bug", "the ticket title sent with NotifyStart (the echo plugin's behaviours key on it)")
	flag.Parse()
	args := flag.Args()
	logger := hclog.New(&hclog.LoggerOptions{Output: os.Stderr, Level: hclog.Info})
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  1,
			MagicCookieKey:   "ERRAND_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "errand-notification-channel",
		},
		Plugins:          map[string]plugin.Plugin{"notification_channel": channelPlugin{}},
		Cmd:              exec.Command(args[0], args[1:]...),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         *autoMTLS,
		Logger:           logger,
	})
	out := report{AutoMTLS: *autoMTLS}
	rpc, err := client.Client()
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(2)
	}
	if err := rpc.Ping(); err != nil {
		out.Ping = err.Error()
	} else {
		out.Ping = "ok"
	}
	raw, err := rpc.Dispense("notification_channel")
	if err != nil {
		fmt.Fprintln(os.Stderr, "dispense:", err)
		os.Exit(2)
	}
	conn := raw.(*grpc.ClientConn)
	ticket := append(field(1, "7"), field(2, *title)...)
	request := append(append(field(1, string(ticket)), field(2, "run-go")...), field(3, "go-engine")...)
	var response []byte
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	err = conn.Invoke(ctx, "/errand.v1.NotificationChannel/NotifyStart", &request, &response, grpc.ForceCodec(rawCodec{}))
	cancel()
	if err != nil {
		out.NotifyStart = err.Error()
	} else {
		out.NotifyStart = "ok"
		out.Response = response
	}
	started := time.Now()
	client.Kill()
	out.KillMs = time.Since(started).Milliseconds()
	out.Exited = client.Exited()
	json.NewEncoder(os.Stdout).Encode(out)
}
