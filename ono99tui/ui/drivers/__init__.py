"""The app's terminal drivers: hang-up aware (a closed terminal ends the app), diffing (only
changed cells are written), and the browser tab's, all built on Textual's own drivers."""
