"""A data team's consumer through a Schema Registry, with stock tools only: confluent-kafka's
Consumer reads the topic from the beginning, and its AvroDeserializer decodes each value (Confluent
wire format: 0x00, schema id, Avro body) with the writer schema SchemaRegistryClient fetches by id.
No .avsc file, no header and none of the service's code is used. Prints one JSON line per event;
exits after `count` events or when `timeout` seconds pass without one.

usage: consume_events_registry.py BROKERS TOPIC REGISTRY_URL COUNT TIMEOUT_SECONDS
"""
import json
import os
import sys

from confluent_kafka import Consumer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer
from confluent_kafka.serialization import MessageField, SerializationContext

brokers, topic, registry_url, count, timeout = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])

deserialize = AvroDeserializer(SchemaRegistryClient({'url': registry_url}))
consumer = Consumer({
    'bootstrap.servers': brokers,
    'group.id': f'python-data-team-registry-{os.getpid()}',
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
        event = deserialize(msg.value(), SerializationContext(topic, MessageField.VALUE))
        event['_key'] = msg.key().decode()
        event['_schema_id'] = int.from_bytes(msg.value()[1:5], 'big')
        print(json.dumps(event), flush=True)
        seen += 1
finally:
    consumer.close()
