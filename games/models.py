# Tables, seats and games arrive with the multiplayer layer.
