import type { RunningServer } from "./running-server.js";

/** The image the container path runs: the PostgreSQL major version Debian ships on the CI machines. */
export const POSTGRES_IMAGE = "postgres:15-alpine";

/**
 * Starts PostgreSQL in a container through testcontainers (its Ryuk
 * container removes it should this process die), with fsync off and room
 * for the multi-process tests' connections; its superuser is `test`.
 */
export async function startContainerPostgres(): Promise<RunningServer> {
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const container = await new PostgreSqlContainer(POSTGRES_IMAGE)
    .withUsername("test")
    .withPassword("test")
    .withDatabase("postgres")
    .withCommand([
      "postgres",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=300",
    ])
    .start();
  return {
    host: container.getHost(),
    port: container.getPort(),
    user: "test",
    password: "test",
    authConfigured: false,
    stop: async () => {
      await container.stop();
    },
  };
}
