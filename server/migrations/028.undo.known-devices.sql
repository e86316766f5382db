DROP TABLE known_devices;
