"""The fleet: campaigns on many machines sharing one findings store and one coverage picture in Redis.

- `connection`: the Redis URL (from `--redis` or `$EMBER_REDIS_URL`), its password
  redacted wherever it is printed, and the client;
- `records`: a finding as a Redis record (signature, metadata, the packed reproducer
  directory) and the checks every record read back from Redis must pass;
- `store`: the store itself (one finding per failure signature, many sightings; written
  by one Lua script, so it is all or nothing) and each campaign's coverage and checks/s;
- `session`: what a running campaign does with the store (upload at once, or queue and
  upload later when Redis is down);
- `exampledb`: Hypothesis' Redis example database, surviving Redis going away;
- `report`: `ember fuzz --redis URL --status` and its `--html` page;
- `options` (argparse only) and `commands`: the `--redis` options of `ember fuzz` and
  `ember findings list|show|reproduce|pull`;
- `localserver`: a throwaway `redis-server` on loopback (tests, `bench`);
- `bench`: concurrent campaigns against one Redis, and the sharded pytest campaign.

Layout and guarantees: `docs/fuzzing.md`, "Campaigns on many machines".
"""
