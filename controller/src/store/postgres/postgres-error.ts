import { ControllerError, StoreError } from "../../errors.js";
import { type ServerAddress, scrubCredentials } from "./server-address.js";

type Explanation = { what: string; hint: string };
type Explain = (server: ServerAddress) => Explanation;

const SECRET = "the secret named by store.url_secret";
const URL_FORM = "postgres://USER:PASSWORD@HOST:5432/DATABASE";

const lost: Explain = () => ({
  what: "the connection to the server was lost",
  hint: "the server restarted, failed over or closed the connection; errand reconnects on its next call: if this repeats, check the server's log and its availability",
});
const unreachable: Explain = (s) => ({
  what: `no answer from ${s.host}:${s.port} in time`,
  hint: `check that ${s.host} is reachable from this machine on port ${s.port} (firewall, security groups, VPN) and that the server is up`,
});
const tls: Explain = () => ({
  what: "the server's TLS certificate was not accepted",
  hint: `add sslrootcert=/path/to/ca.pem to the URL in ${SECRET} (node-postgres checks sslmode=require like verify-full), or uselibpqcompat=true&sslmode=require to encrypt without checking`,
});

/** By the error's code: a PostgreSQL SQLSTATE or a Node.js system error code. */
const BY_CODE: Record<string, Explain> = {
  ECONNREFUSED: (s) => ({
    what: `nothing accepts connections at ${s.host}:${s.port}`,
    hint: `start PostgreSQL there, or fix the host and port in ${SECRET}; the server must listen on that address (listen_addresses and port in postgresql.conf)`,
  }),
  ENOTFOUND: (s) => ({
    what: `the host name ${s.host} does not resolve`,
    hint: `fix the host in ${SECRET}, or the DNS of this machine`,
  }),
  EAI_AGAIN: (s) => ({
    what: `the host name ${s.host} could not be resolved (DNS did not answer)`,
    hint: "check the DNS of this machine, then restart",
  }),
  ETIMEDOUT: unreachable,
  EHOSTUNREACH: unreachable,
  ENETUNREACH: unreachable,
  ECONNRESET: lost,
  EPIPE: lost,
  "08000": lost,
  "08003": lost,
  "08006": lost,
  "57P01": lost,
  "57P02": lost,
  "57P05": lost,
  "57P03": () => ({
    what: "the server is starting up or shutting down",
    hint: "wait until PostgreSQL accepts connections, then errand's next call goes through",
  }),
  "28P01": (s) => ({
    what: `password authentication failed for the role "${s.user}"`,
    hint: `fix the user and password in ${SECRET} (${URL_FORM}; percent-encode special characters in the password)`,
  }),
  "28000": (s) => ({
    what: `the server refused the login of the role "${s.user}"`,
    hint: `check that the role exists (CREATE ROLE ${s.user} LOGIN PASSWORD '...') and that pg_hba.conf lets it connect from this host to ${s.database}; a "no encryption" refusal wants sslmode=require in the URL`,
  }),
  "3D000": (s) => ({
    what: `the database "${s.database}" does not exist on ${s.host}:${s.port}`,
    hint: `create it (CREATE DATABASE ${s.database} OWNER ${s.user || "errand"}, or createdb -h ${s.host} -p ${s.port} -O ${s.user || "errand"} ${s.database}), or fix the database name in ${SECRET}`,
  }),
  "42501": (s) => ({
    what: `the role "${s.user}" lacks a privilege errand needs`,
    hint: `errand creates and owns its tables: give it a schema of its own (CREATE SCHEMA errand AUTHORIZATION ${s.user}, then ?options=-c%20search_path%3Derrand in the URL), or GRANT CREATE ON SCHEMA public TO ${s.user}`,
  }),
  "3F000": () => ({
    what: "the search_path names no schema that exists, so there is nowhere to create errand's tables",
    hint: "create the schema (CREATE SCHEMA errand AUTHORIZATION <user>) or fix search_path in the URL's options",
  }),
  "42P07": () => ({
    what: "a table with one of errand's names exists, and errand did not create it",
    hint: "give errand a database of its own, or a schema of its own (?options=-c%20search_path%3Derrand in the URL)",
  }),
  "53300": () => ({
    what: "the server has no connection slot left",
    hint: "raise max_connections on the server, or lower the connections others hold; each controller opens up to 10 connections plus one for the leadership",
  }),
  "53100": () => ({
    what: "the server's disk is full",
    hint: "free space on the PostgreSQL server, then errand's next call goes through",
  }),
  "25006": (s) => ({
    what: `${s.host}:${s.port} is a read-only standby`,
    hint: `point ${SECRET} at the primary (or at an address that always follows it)`,
  }),
  "57014": () => ({
    what: "a statement ran longer than the store allows",
    hint: "look for sessions holding locks on errand's tables (pg_stat_activity, pg_locks) and end them",
  }),
  "22021": () => ({
    what: "a value holds a NUL character (\\u0000), which PostgreSQL text cannot store",
    hint: "remove the NUL character where the value comes from; nothing was written",
  }),
  "22P05": () => ({
    what: "a value holds a NUL character (\\u0000), which PostgreSQL text cannot store",
    hint: "remove the NUL character where the value comes from; nothing was written",
  }),
  DEPTH_ZERO_SELF_SIGNED_CERT: tls,
  SELF_SIGNED_CERT_IN_CHAIN: tls,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: tls,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: tls,
  CERT_HAS_EXPIRED: tls,
  ERR_TLS_CERT_ALTNAME_INVALID: tls,
};

/** Errors node-postgres raises without a code, by their message. */
function byMessage(message: string, server: ServerAddress): Explanation | undefined {
  if (/terminated unexpectedly|Connection terminated/i.test(message)) return lost(server);
  if (/timeout expired|connection timeout|timeout exceeded when trying to connect/i.test(message))
    return unreachable(server);
  if (/does not support SSL/i.test(message)) {
    return {
      what: "the server does not accept TLS",
      hint: `remove sslmode and ssl from the URL in ${SECRET}, or enable ssl on the server`,
    };
  }
  return undefined;
}

/**
 * Turns whatever node-postgres or the network threw during `action` into a
 * {@link StoreError} naming the server (never the password) and the fix.
 * The controller's own errors (NotFound, Conflict, Store) pass as they are.
 */
export function toStoreError(error: unknown, server: ServerAddress, action: string): ControllerError {
  if (error instanceof ControllerError) return error;
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "";
  const message = scrubCredentials(error instanceof Error ? error.message : String(error));
  const explained = BY_CODE[code]?.(server) ?? byMessage(message, server);
  const where = `store ${server.location}: ${action} failed`;
  if (explained) {
    return new StoreError(`${where}: ${explained.what} (${code ? `${code}: ` : ""}${message})`, {
      cause: error,
      hint: explained.hint,
    });
  }
  return new StoreError(`${where}: ${code ? `${code}: ` : ""}${message}`, {
    cause: error,
    hint: "this is unexpected: report it with the message above (the server's log may say more)",
  });
}
