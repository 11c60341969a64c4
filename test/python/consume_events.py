"""A data team's consumer, with stock tools only: confluent-kafka reads the topic from the
beginning, fastavro decodes each value with the published .avsc file the headers name.
Nothing of the service's code is used. Prints one JSON line per event; exits after `count`
events or when `timeout` seconds pass without one.

usage: consume_events.py BROKERS TOPIC SCHEMA_DIR COUNT TIMEOUT_SECONDS
"""
import glob
import io
import json
import os
import re
import sys

import fastavro
from confluent_kafka import Consumer

brokers, topic, schema_dir, count, timeout = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])

schemas = {}
for path in glob.glob(os.path.join(schema_dir, '*', 'avro', '*.avsc')):
    m = re.match(r'^(\w+)\.v(\d+)\.avsc$', os.path.basename(path))
    with open(path) as f:
        schemas[(m.group(1), int(m.group(2)))] = fastavro.parse_schema(json.load(f))

consumer = Consumer({
    'bootstrap.servers': brokers,
    'group.id': f'python-data-team-{os.getpid()}',
    'auto.offset.reset': 'earliest',
    'enable.auto.commit': False,
})
consumer.subscribe([topic])
seen = 0
try:
    while seen < count:
        msg = consumer.poll(timeout)
        if msg is None:
            break
        if msg.error():
            raise SystemExit(f'kafka error: {msg.error()}')
        headers = {k: v.decode() for k, v in (msg.headers() or [])}
        schema = schemas[(headers['event-type'], int(headers['event-version']))]
        event = fastavro.schemaless_reader(io.BytesIO(msg.value()), schema)
        event['_key'] = msg.key().decode()
        event['_partition'] = msg.partition()
        print(json.dumps(event), flush=True)
        seen += 1
finally:
    consumer.close()
