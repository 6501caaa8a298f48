"""The app's shell: the factory, guards, passcode, error pages, assets, the database per request and the server."""
