from django.urls import path

from games import views, views_history, views_practice, views_rack, views_ranked

urlpatterns = [
    path("", views.home, name="home"),
    path("rooms/new/", views.room_new, name="room_new"),
    path("rooms/join/<str:code>/", views.room_join, name="room_join"),
    path("rooms/<int:room_id>/", views.room_detail, name="room"),
    path("rooms/<int:room_id>/seats/take/", views.seat_take, name="seat_take"),
    path("rooms/<int:room_id>/seats/bot/", views.seat_add_bot, name="seat_add_bot"),
    path("rooms/<int:room_id>/leave/", views.seat_leave, name="seat_leave"),
    path("rooms/<int:room_id>/start/", views.match_start, name="match_start"),
    path("matches/", views.match_list, name="match_list"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("matches/all/", views_history.match_list_all, name="match_list_all"),
    path("matches/<int:match_id>/record.json", views_history.match_export, name="match_export"),
    path("matches/<int:match_id>/scores.csv", views_history.match_scores_csv, name="match_scores_csv"),
    path(
        "matches/<int:match_id>/rounds/<int:number>/replay/",
        views_history.round_replay,
        name="round_replay",
    ),
    path("verify/", views_history.verify, name="verify"),
    path("verify/replay/", views_history.verify_replay, name="verify_replay"),
    path("matches/<int:match_id>/rack/", views_rack.rack_check, name="match_rack"),
    path("table/display/", views_rack.card_display, name="card_display"),
    path("leaderboard/", views_ranked.leaderboard, name="leaderboard"),
    path("healthz/", views.healthz, name="healthz"),
    path("protocol.schema.json", views.protocol_schema, name="protocol_schema"),
    # Practice offline (docs/practice.md): the page, and the scripts that must sit in its scope.
    path("practice/", views_practice.practice, name="practice"),
    path("practice/worker.js", views_practice.practice_worker, name="practice_worker"),
    path("practice/sw.js", views_practice.practice_sw, name="practice_sw"),
    path("practice/manifest.webmanifest", views_practice.practice_manifest, name="practice_manifest"),
]
