from django.urls import path

from games.learn.views import daily, history, match, puzzles
from games.play.views import rooms, site, table
from games.practice import views as practice
from games.ranked import views as ranked

urlpatterns = [
    path("", rooms.home, name="home"),
    path("rooms/new/", rooms.room_new, name="room_new"),
    path("rooms/join/<str:code>/", rooms.room_join, name="room_join"),
    path("rooms/<int:room_id>/", rooms.room_detail, name="room"),
    path("rooms/<int:room_id>/seats/take/", rooms.seat_take, name="seat_take"),
    path("rooms/<int:room_id>/seats/bot/", rooms.seat_add_bot, name="seat_add_bot"),
    path("rooms/<int:room_id>/leave/", rooms.seat_leave, name="seat_leave"),
    path("rooms/<int:room_id>/start/", rooms.match_start, name="match_start"),
    path("matches/", history.match_list_mine, name="match_list"),
    path("matches/<int:match_id>/", match.match_detail, name="match"),
    path("matches/all/", history.match_list_all, name="match_list_all"),
    path("matches/<int:match_id>/record.json", history.match_export, name="match_export"),
    path("matches/<int:match_id>/scores.csv", history.match_scores_csv, name="match_scores_csv"),
    path("matches/<int:match_id>/rounds/<int:number>/replay/", history.round_replay, name="round_replay"),
    path(
        "matches/<int:match_id>/rounds/<int:number>/replay/frames/",
        history.round_replay_frames,
        name="round_replay_frames",
    ),
    path(
        "matches/<int:match_id>/rounds/<int:number>/analysis/", history.round_analysis, name="round_analysis"
    ),
    path("verify/", history.verify, name="verify"),
    path("verify/replay/", history.verify_replay, name="verify_replay"),
    path("verify/replay/<slug:token>/<int:number>/", history.verify_replay_page, name="verify_replay_page"),
    path(
        "verify/replay/<slug:token>/<int:number>/frames/",
        history.verify_replay_frames,
        name="verify_replay_frames",
    ),
    path("matches/<int:match_id>/rack/", table.rack_check, name="match_rack"),
    path("table/display/", table.card_display, name="card_display"),
    path("leaderboard/", ranked.leaderboard, name="leaderboard"),
    path("daily/", daily.daily_index, name="daily"),
    path("daily/<str:variant>/play/", daily.daily_play, name="daily_play"),
    path("daily/month/<str:month>/", daily.daily_month, name="daily_month"),
    path("daily/day/<str:day>/", daily.daily_day, name="daily_day"),
    path("healthz/", site.healthz, name="healthz"),
    path("protocol.schema.json", site.protocol_schema, name="protocol_schema"),
    # Puzzles (docs/learn.md, "Puzzles").
    path("puzzles/", puzzles.puzzle_index, name="puzzles"),
    path("puzzles/next/<str:kind>/", puzzles.puzzle_next, name="puzzle_next"),
    path("puzzles/<int:puzzle_id>/", puzzles.puzzle_detail, name="puzzle"),
    path("puzzles/<int:puzzle_id>/answer/", puzzles.puzzle_answer, name="puzzle_answer"),
    path("puzzles/<int:puzzle_id>/rack/", puzzles.puzzle_rack, name="puzzle_rack"),
    path("puzzles/<int:puzzle_id>/report/", puzzles.puzzle_report, name="puzzle_report"),
    # Practice offline (docs/practice.md): the page, and the scripts that must sit in its scope.
    path("practice/", practice.practice, name="practice"),
    path("practice/worker.js", practice.practice_worker, name="practice_worker"),
    path("practice/sw.js", practice.practice_sw, name="practice_sw"),
    path("practice/manifest.webmanifest", practice.practice_manifest, name="practice_manifest"),
]
