DROP TABLE bot_signals;
DROP TABLE bot_signal_hooks;
